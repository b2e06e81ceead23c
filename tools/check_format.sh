#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Checks that every C++ source is formatted as .clang-format says (with
# clang-format-14, the version the tree was formatted with) and that every
# source file carries its SPDX licence line. Prints one line per file that
# fails and a summary; exits 1 if any does.
#   tools/check_format.sh         check
#   tools/check_format.sh --fix   reformat in place
set -uo pipefail
cd "$(dirname "$0")/.."
fmt=${CLANG_FORMAT:-clang-format-14}
mapfile -t cxx < <(git ls-files '*.cc' '*.h' | grep -v '^third_party/bazel/')
mapfile -t all < <(git ls-files '*.cc' '*.h' '*.py' '*.sh' '*.bzl' 'BUILD' '*/BUILD' |
  grep -v '^third_party/bazel/')
if [ "${1:-}" = "--fix" ]; then
  "$fmt" -i "${cxx[@]}"
  exit 0
fi
bad=0
for f in "${cxx[@]}"; do
  if ! "$fmt" --dry-run --Werror "$f" >/dev/null 2>&1; then
    echo "not formatted: $f (tools/check_format.sh --fix)"
    bad=$((bad + 1))
  fi
done
for f in "${all[@]}"; do
  if ! head -n 3 "$f" | grep -q 'SPDX-License-Identifier: GPL-2.0-only'; then
    echo "no SPDX line: $f"
    bad=$((bad + 1))
  fi
done
echo "check_format: ${#cxx[@]} C++ files, ${#all[@]} sources, $bad problem(s)"
[ "$bad" -eq 0 ]
