#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# This file rewrites the contract table of model/README.md (between the
# "contracts:begin" and "contracts:end" markers) from the registry:
#   bazel build //model/kernel:contracts_table &&
#   model/kernel/checkers/gen_contracts_md.sh bazel-bin/model/kernel/contracts_table \
#       model/README.md
# With -o FILE it writes the result to FILE instead of rewriting in place.
set -euo pipefail
out=""
if [[ "${1:-}" == "-o" ]]; then
  out=$2
  shift 2
fi
bin=$1
readme=$2
table=$(mktemp)
trap 'rm -f "$table"' EXIT
"$bin" >"$table"
result=$(awk -v table="$table" '
  /<!-- contracts:begin -->/ { print; while ((getline l < table) > 0) print l; skip = 1; next }
  /<!-- contracts:end -->/ { skip = 0 }
  !skip { print }' "$readme")
if [[ -n "$out" ]]; then
  printf '%s\n' "$result" >"$out"
else
  printf '%s\n' "$result" >"$readme"
fi
