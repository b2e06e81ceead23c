#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Runs every squashlab test: the whole Bazel suite, then the hardening tests
# again under AddressSanitizer + UndefinedBehaviorSanitizer, then the
# ThreadSanitizer tests, then the fuzz tests built as libFuzzer runs them
# (clang-14), then the builds only clang makes (every target under clang-14
# -Werror, the OSS-Fuzz/ClusterFuzzLite build script), then the repository
# checks (the layer rules of every #include, formatting and licence lines).
# Ends with one line "squashlab: N passed, M failed".
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
# clang-14 + libFuzzer + ASan/UBSan: every fuzz target, each corpus test over
# its seeds and the regression corpus, with its dictionary and a short
# mutation pass (fuzz/run_corpus.sh), and the fuzz package's other tests.
run --config=fuzz //fuzz/...
# Builds and repository checks, counted like test targets.
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
# Every target under clang-14 -Werror (gcc, above, accepts code clang
# rejects), with layering_check: a file may include only the headers of
# the targets it depends on directly, so that what is above the harness
# (cli/, bench/, proptests/, fuzz/) cannot reach a model header through the
# harness's own dependencies. Unoptimised: clang's warnings come from its
# front end, and -O0 -g0 takes about two thirds of --config=clang's CPU
# time. Its own output directory; the workspace's bazel-* links are left
# alone.
check "clang-14 -O0 layering_check build //..." bazel build --config=clang \
  --platform_suffix=clang-O0 --features=layering_check --copt=-O0 --copt=-g0 \
  --symlink_prefix=/ //...
# The build OSS-Fuzz and ClusterFuzzLite run (.clusterfuzzlite/build.sh:
# fuzz/build.sh, no Bazel; through ccache), every target over its seeds.
# Skipped, and said so, without its tools.
if fuzz/check_oss_fuzz_build.sh --tools >/dev/null; then
  check fuzz/check_oss_fuzz_build.sh fuzz/check_oss_fuzz_build.sh
else
  echo "== fuzz/check_oss_fuzz_build.sh: skipped ($(fuzz/check_oss_fuzz_build.sh --tools))"
fi
check //tools:check_layers python3 tools/check_layers.py
check //tools:check_format tools/check_format.sh
passed=$(grep -cE ' PASSED( |$)' "$log" || true)
failed=$(grep -cE ' (FAILED|TIMEOUT|NO STATUS|FAILED TO BUILD)( |$)' "$log" || true)
echo "squashlab: $passed passed, $failed failed"
[ "$status" -eq 0 ] && [ "$failed" -eq 0 ]
