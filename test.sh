#!/usr/bin/env bash
# Runs every squashlab test: the whole Bazel suite, then the hardening tests
# again under AddressSanitizer + UndefinedBehaviorSanitizer, then the
# ThreadSanitizer tests. Ends with one line "squashlab: N passed, M failed".
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
passed=$(grep -cE ' PASSED( |$)' "$log" || true)
failed=$(grep -cE ' (FAILED|TIMEOUT|NO STATUS|FAILED TO BUILD)( |$)' "$log" || true)
echo "squashlab: $passed passed, $failed failed"
[ "$status" -eq 0 ] && [ "$failed" -eq 0 ]
