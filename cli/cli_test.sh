#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# This file tests the `squashlab` command line as a user meets it: help and
# --version on stdout with exit 0, usage errors as one line plus where the
# help is (exit 2) for unknown options, bad numbers, bad choices and outputs
# that cannot be written (before any work starts), `--` ending options,
# error messages that say things once, and a quiet stop when stdout's reader
# goes away.
set -uo pipefail
bin="${TEST_SRCDIR:-}/squashlab/cli/squashlab"
img="${TEST_SRCDIR:-}/squashlab/testdata/tree_zstd.sqfs"
[[ -x "$bin" ]] || bin="${SQUASHLAB:-bazel-bin/cli/squashlab}"
[[ -f "$img" ]] || img="bazel-bin/testdata/tree_zstd.sqfs"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# run ARGS...: sets $rc, $out, $err.
run() {
  "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  out="$(cat "$tmp/out")"
  err="$(cat "$tmp/err")"
}

expect_help() {  # ARGS...: help on stdout, nothing on stderr, exit 0
  run "$@"
  [[ $rc -eq 0 ]] || fail "squashlab $*: exit $rc, expected 0"
  [[ "$out" == *"Usage: squashlab"* ]] || fail "squashlab $*: no usage on stdout"
  [[ -z "$err" ]] || fail "squashlab $*: stderr: $err"
}

expect_usage_error() {  # COMMAND ARGS...: one line, then "try 'squashlab COMMAND --help'"
  local cmd="$1"
  shift
  run "$@"
  [[ $rc -eq 2 ]] || fail "squashlab $*: exit $rc, expected 2"
  [[ -z "$out" ]] || fail "squashlab $*: wrote to stdout"
  local lines
  lines="$(printf '%s\n' "$err" | wc -l)"
  [[ $lines -eq 2 ]] || fail "squashlab $*: $lines lines on stderr, expected 2: $err"
  [[ "$(printf '%s\n' "$err" | tail -n 1)" == "try 'squashlab${cmd:+ $cmd} --help'" ]] ||
    fail "squashlab $*: no pointer to the help: $err"
}

# Help: the global one and each command's, three ways, all the same text.
expect_help --help
expect_help help
for cmd in info ls cat extract verify repro bench mkimage; do
  expect_help "$cmd" --help
  by_flag="$out"
  expect_help "$cmd" -h
  expect_help help "$cmd"
  [[ "$out" == "$by_flag" ]] || fail "help $cmd differs from $cmd --help"
done
run --version
[[ $rc -eq 0 && "$out" == "squashlab "* ]] || fail "--version: exit $rc: $out"

# Usage errors.
expect_usage_error "" frobnicate
expect_usage_error cat cat -x "$img" /big
expect_usage_error info info
expect_usage_error ls ls -Z "$img"
expect_usage_error verify verify --budget abc
expect_usage_error verify verify --budget -5
expect_usage_error verify verify --time abc
expect_usage_error verify verify --variant nosuch
expect_usage_error verify verify --expect async-2013=maybe --budget 1
expect_usage_error verify verify --expect async-2031=fail --budget 1
expect_usage_error verify verify --json /nonexistent/v.json
expect_usage_error verify verify --out /nonexistent/dir
expect_usage_error bench bench phillip --jobs abc
expect_usage_error bench bench phillip --variant nosuch
expect_usage_error bench bench nosuch
expect_usage_error bench bench phillip --plot /nonexistent/p.png
expect_usage_error bench bench phillip --plot "$tmp/p.txt"
expect_usage_error cat cat -p 0 "$img" /big
expect_usage_error repro repro not-a-token
expect_usage_error mkimage mkimage --shape nosuch "$tmp/images"
[[ "$err" == *"no shape 'nosuch'"*"mkimage --list"* ]] || fail "mkimage --shape nosuch: $err"
expect_usage_error mkimage mkimage --shape all
expect_usage_error mkimage mkimage /nonexistent/dir/images
[[ "$err" != *Traceback* ]] || fail "a Python traceback on stderr"

# mkimage: the matrix, and one small image (one line per image).
run mkimage --list
[[ $rc -eq 0 && "$out" == *"gzip-128k-tailends *"* && $(wc -l <<<"$out") -ge 22 ]] ||
  fail "mkimage --list: exit $rc: $out"
run mkimage --shape gzip-4k-tailends "$tmp/images"
[[ $rc -eq 0 && -s "$tmp/images/gzip-4k-tailends.sqfs" && $(wc -l <<<"$out") -eq 1 ]] ||
  fail "mkimage --shape gzip-4k-tailends: exit $rc: $out $err"

# `--` ends the options: "-x" is then a path in the image.
run cat -- "$img" -x
[[ $rc -eq 1 && "$err" == "squashlab: $img: /-x: not found" ]] || fail "cat -- IMG -x: exit $rc: $err"

# A message says each thing once.
run ls "$img" /nope
[[ $rc -eq 1 && "$err" == "squashlab: $img: /nope: not found" ]] || fail "ls IMG /nope: $err"

# stdout closed before the command writes: a quiet stop with exit 141.
closed_stdout() {  # ARGS...: runs squashlab with the read end of its stdout pipe closed
  python3 - "$bin" "$@" <<'PY'
import os, subprocess, sys
r, w = os.pipe()
os.close(r)
p = subprocess.run(sys.argv[1:], stdout=w, stderr=subprocess.PIPE)
sys.stderr.buffer.write(p.stderr)
sys.exit(p.returncode)
PY
}
for args in "cat $img /big" "ls -l -R $img" "ls $img"; do
  closed_stdout $args 2>"$tmp/err"
  rc=$?
  [[ $rc -eq 141 ]] || fail "$args into a closed pipe: exit $rc, expected 141"
  [[ ! -s "$tmp/err" ]] || fail "$args into a closed pipe: stderr: $(cat "$tmp/err")"
done
# ... and through a real pipe into head, as a user writes it.
"$bin" cat "$img" /big 2>"$tmp/err" | head -c 10 >/dev/null
rc=${PIPESTATUS[0]}
[[ $rc -eq 141 || $rc -eq 0 ]] || fail "cat | head -c 10: exit $rc"
[[ ! -s "$tmp/err" ]] || fail "cat | head -c 10: stderr: $(cat "$tmp/err")"

if [[ $failures -gt 0 ]]; then
  echo "$failures failures"
  exit 1
fi
echo "PASS"
