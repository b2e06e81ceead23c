#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# This file implements the sh_test entry point of the differential suites:
# it finds the harness and the squashlab binary in the runfiles and runs one
# suite (differential.py SUITE, or malformed.py).
set -euo pipefail
here="${TEST_SRCDIR:-}/squashlab/tests/differential"
if [[ ! -f "$here/differential.py" ]]; then
  here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
fi
if [[ -z "${SQUASHLAB:-}" && -n "${TEST_SRCDIR:-}" ]]; then
  export SQUASHLAB="$TEST_SRCDIR/squashlab/cli/squashlab"
fi
script="$1"
shift
exec python3 -u "$here/$script" "$@"
