#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# This file checks that docs/cli.md is what cli/gen_cli_md.sh makes from the
# binary's help: the command reference cannot drift from the usage text.
set -euo pipefail
root="${TEST_SRCDIR:-}/squashlab"
[[ -f "$root/docs/cli.md" ]] || root="."
bin="$root/cli/squashlab"
[[ -x "$bin" ]] || bin="${SQUASHLAB:-bazel-bin/cli/squashlab}"
if ! diff -u "$root/docs/cli.md" <(bash "$root/cli/gen_cli_md.sh" "$bin"); then
  echo "FAIL: docs/cli.md differs from the help text; regenerate it:"
  echo "  bazel build //cli:squashlab && cli/gen_cli_md.sh bazel-bin/cli/squashlab > docs/cli.md"
  exit 1
fi
echo PASS
