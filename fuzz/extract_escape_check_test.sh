#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Tests the tester: extract_fuzzer must abort when something appears outside
# its destination. SQUASHLAB_EXTRACT_FUZZER_PLANT makes the harness create
# that file itself after a clean extraction of a valid image.
# usage: extract_escape_check_test.sh EXTRACT_FUZZER IMAGE
set -uo pipefail
bin=$1 image=$2
"$bin" "$image" >/dev/null 2>&1 || { echo "clean extraction failed"; exit 1; }
for plant in escaped canary/escaped work/escaped; do
  out=$(SQUASHLAB_EXTRACT_FUZZER_PLANT=$plant "$bin" "$image" 2>&1)
  if [ $? -eq 0 ]; then
    echo "FAIL: a file planted at BASE/$plant went unnoticed"
    exit 1
  fi
  # Not `echo | grep -q`: grep exits at the first match, and with pipefail
  # the echo of a long report (libFuzzer's stack trace) then fails on SIGPIPE.
  grep -qE 'wrote (outside|beside) its destination|FUZZ_CHECK failed' <<<"$out" ||
    { echo "FAIL: no escape report for $plant: $out"; exit 1; }
done
echo "PASS: escapes to BASE, BASE/canary and BASE/work are detected"
