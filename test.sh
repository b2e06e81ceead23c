#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Runs every squashlab test: the whole Bazel suite, then the hardening tests
# again under AddressSanitizer + UndefinedBehaviorSanitizer, then the
# ThreadSanitizer tests, then the repository checks (the layer rules of every
# #include, formatting and licence lines). Ends with one line
# "squashlab: N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")"
source tools/install_deps.sh

log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
run() {
  echo "== bazel test $*"
  bazel test --keep_going --test_summary=short "$@" 2>&1 | tee -a "$log" | grep -vE '^(INFO|Loading|Analyzing)' || true
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
}
run //...
run --config=asan --build_tests_only --test_tag_filters=hardening //...
if bazel query 'attr(tags, "tsan", tests(//...))' 2>/dev/null | grep -q .; then
  run --config=tsan --build_tests_only --test_tag_filters=tsan //...
fi
# Repository checks, counted like test targets.
check() {  # NAME COMMAND...
  local name=$1
  shift
  echo "== $name"
  if "$@" 2>&1 | tail -n 20; [ "${PIPESTATUS[0]}" -eq 0 ]; then
    echo "$name PASSED" | tee -a "$log"
  else
    echo "$name FAILED" | tee -a "$log"
    status=1
  fi
}
check //tools:check_layers python3 tools/check_layers.py
check //tools:check_format tools/check_format.sh
passed=$(grep -cE ' PASSED( |$)' "$log" || true)
failed=$(grep -cE ' (FAILED|TIMEOUT|NO STATUS|FAILED TO BUILD)( |$)' "$log" || true)
echo "squashlab: $passed passed, $failed failed"
[ "$status" -eq 0 ] && [ "$failed" -eq 0 ]
