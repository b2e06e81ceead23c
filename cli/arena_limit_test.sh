#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# This file tests `squashlab` under an address-space limit (prlimit --as):
# the image commands print byte for byte what they print without one on
# every test image, and the model's commands size their slab arena to the
# limit, or end with one line naming the limit, --arena-mb and
# SQUASHLAB_ARENA_MB and the usage exit status (never an abort).
set -uo pipefail
bin="${TEST_SRCDIR:-}/squashlab/cli/squashlab"
images="${TEST_SRCDIR:-}/squashlab/testdata"
[[ -x "$bin" ]] || bin="$(realpath "${SQUASHLAB:-bazel-bin/cli/squashlab}")"
[[ -d "$images" ]] || images="$(realpath bazel-bin/testdata)"
# 32 extractions of a thousand files: on tmpfs when there is one (seconds,
# not minutes on a disk under load).
tmp_root="${TEST_TMPDIR:-/tmp}"
[[ -d /dev/shm && -w /dev/shm ]] && tmp_root=/dev/shm
tmp="$(mktemp -d "$tmp_root/arena_limit_test.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
failures=0
limit=$((1 << 30))
advice="raise the limit or set --arena-mb / SQUASHLAB_ARENA_MB"

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

if ! command -v prlimit >/dev/null; then
  echo "FAIL: prlimit (util-linux) is not installed: nothing was tested"
  exit 1
fi

# run NAME COMMAND...: its stdout, stderr and exit status in $tmp/NAME.*.
run() {
  local name="$1"
  shift
  "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
  echo $? >"$tmp/$name.rc"
}

# same ARGS...: squashlab ARGS succeeds, and prints the same and exits the
# same with and without the limit (run in the current directory).
same() {
  run free "$bin" "$@"
  run lim prlimit --as=$limit "$bin" "$@"
  [[ "$(cat "$tmp/free.rc")" == 0 ]] ||
    fail "squashlab $*: exit $(cat "$tmp/free.rc") without a limit"
  for part in out err rc; do
    cmp -s "$tmp/free.$part" "$tmp/lim.$part" ||
      fail "squashlab $*: $part differs under prlimit --as=$limit" \
        "(exit $(cat "$tmp/free.rc") without, $(cat "$tmp/lim.rc") with)"
  done
}

# The largest regular file of a long listing (none: empty).
largest_file() {
  awk '$1 ~ /^-/ && $3 + 0 >= best {
         best = $3 + 0
         path = $0
         for (i = 0; i < 5; i++) sub(/^[^ ]+ +/, "", path)
       } END { print path }' "$1"
}

# A tree as extract left it: every path with its type, mode, owner, size,
# time and link target, then every regular file's checksum.
describe() {
  (cd "$1" && find . -printf '%p %y %m %U:%G %s %T@ %l\n' | sort &&
    find . -type f -print0 | sort -z | xargs -0 -r md5sum)
}

n=0
for img in "$images"/*.sqfs; do
  n=$((n + 1))
  same info "$img"
  same ls -l -R "$img"
  file="$(largest_file "$tmp/free.out")"
  [[ -n "$file" ]] && same cat "$img" "$file"
  # Into a/x, then b/x under the limit, asking for far more worker threads
  # than a gigabyte holds stacks for (as the default would on a large
  # machine): the queue takes what the limit allows, the tree the same.
  rm -rf "$tmp/a" "$tmp/b"
  mkdir "$tmp/a" "$tmp/b"
  (cd "$tmp/a" && run free "$bin" extract -q -p 4 "$img" x)
  (cd "$tmp/b" && run lim prlimit --as=$limit "$bin" extract -q -p 256 "$img" x)
  for part in out err rc; do
    cmp -s "$tmp/free.$part" "$tmp/lim.$part" ||
      fail "squashlab extract $img: $part differs under prlimit --as=$limit"
  done
  [[ "$(describe "$tmp/a/x")" == "$(describe "$tmp/b/x")" ]] ||
    fail "squashlab extract $img: another tree under prlimit --as=$limit"
done
[[ $n -ge 10 ]] || fail "only $n images found in $images"

# expect_arena_line LINE ARGS...: squashlab ARGS ends with exit 2 and LINE
# as the only "squashlab:" line on stderr (and no stdout).
expect_arena_line() {
  local want="$1"
  shift
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  [[ $rc -eq 2 ]] || fail "$*: exit $rc, expected 2"
  [[ "$(grep '^squashlab: ' "$tmp/err")" == "$want" ]] ||
    fail "$*: stderr is not the one line '$want': $(cat "$tmp/err")"
  [[ ! -s "$tmp/out" ]] || fail "$*: wrote to stdout"
}

small=(verify --variant sync-3.13 --decomp single --budget 5)
# Sized to the limit: a small arena is enough.
prlimit --as=$limit "$bin" "${small[@]}" >"$tmp/out" 2>"$tmp/err"
rc=$?
[[ $rc -eq 0 ]] || fail "${small[*]} under prlimit --as=$limit: exit $rc: $(cat "$tmp/err")"
grep -q '^verdict: 1 cells ' "$tmp/out" || fail "${small[*]}: no verdict"

# More than the limit allows, by flag or environment.
want="squashlab: cannot reserve a slab arena of 4096 MiB (address-space limit 1024 MiB); $advice"
expect_arena_line "$want" prlimit --as=$limit "$bin" "${small[@]}" --arena-mb 4096
expect_arena_line "$want" prlimit --as=$limit \
  env SQUASHLAB_ARENA_MB=4096 "$bin" "${small[@]}"

# An arena a run outgrows (every file of the xz image takes a few MiB).
full=(verify --variant sync-3.13 --decomp single --budget 1 --workload every
  --image "$images/tree_xz.sqfs" --arena-mb 1)
expect_arena_line "squashlab: the slab arena needs more than 1 MiB (address-space limit 1024 MiB); $advice" \
  prlimit --as=$limit "$bin" "${full[@]}"
"$bin" "${full[@]}" >/dev/null 2>"$tmp/err"
rc=$?
[[ $rc -eq 2 ]] || fail "${full[*]}: exit $rc, expected 2"
grep -q '^squashlab: the slab arena needs more than 1 MiB (' "$tmp/err" ||
  fail "${full[*]}: $(cat "$tmp/err")"

# A size that is not one.
SQUASHLAB_ARENA_MB=lots "$bin" "${small[@]}" >/dev/null 2>"$tmp/err"
rc=$?
[[ $rc -eq 2 ]] || fail "SQUASHLAB_ARENA_MB=lots: exit $rc, expected 2"
grep -q '^squashlab: SQUASHLAB_ARENA_MB=lots: not a number of MiB' "$tmp/err" ||
  fail "SQUASHLAB_ARENA_MB=lots: $(cat "$tmp/err")"

if [[ $failures -ne 0 ]]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "PASS ($n images)"
