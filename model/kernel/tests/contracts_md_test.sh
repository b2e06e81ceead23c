#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# This file checks that model/README.md's contract table is what the
# registry generates (model/kernel/checkers/gen_contracts_md.sh): the table cannot
# drift from the checks.
set -euo pipefail
root="${TEST_SRCDIR:-}/squashlab"
[[ -f "$root/model/README.md" ]] || root="."
bin="$root/model/kernel/contracts_table"
readme="$root/model/README.md"
grep -q '<!-- contracts:begin -->' "$readme" || {
  echo "FAIL: model/README.md has no contracts:begin marker"
  exit 1
}
fresh=$(mktemp)
trap 'rm -f "$fresh"' EXIT
bash "$root/model/kernel/checkers/gen_contracts_md.sh" -o "$fresh" "$bin" "$readme"
if ! diff -u "$readme" "$fresh"; then
  echo "FAIL: model/README.md's contract table is stale; regenerate it:"
  echo "  bazel build //model/kernel:contracts_table &&"
  echo "  model/kernel/checkers/gen_contracts_md.sh bazel-bin/model/kernel/contracts_table model/README.md"
  exit 1
fi
echo PASS
