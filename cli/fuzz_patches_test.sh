#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# `squashlab fuzz --source` on Linux 6.12's fs/squashfs with one mainline
# sanity check reverted (testdata/fuzz_patches/) finds the report the
# missing check lets through within a bounded number of executions from
# the default seeds (mutator seed 1: the same runs every time), writes a
# minimised image (padded to 4 KiB, as a loop device needs it) that
# `--replay` reproduces on the patched tree and that
# the unpatched tree walks clean; the unpatched tree is clean under the
# same campaign. Figures: fuzz/results/real_code_ubsan_xattrs.md.
set -euo pipefail
bin="$TEST_SRCDIR/squashlab/cli/squashlab"
pristine="$TEST_SRCDIR/linux_6_12/fs/squashfs"
patches="$TEST_SRCDIR/squashlab/testdata/fuzz_patches"
export SQUASHLAB_CACHE="$TEST_TMPDIR/cache"
runs=${SQUASHLAB_FUZZ_TEST_RUNS:-5000}
fails=0

tree() {  # NAME: a writable copy of the pristine tree
  local d="$TEST_TMPDIR/$1/fs/squashfs"
  mkdir -p "$d"
  cp "$pristine"/* "$d"/
  chmod -R u+w "$d"
  echo "$TEST_TMPDIR/$1"
}

fuzz() {  # DIR OUT: the bounded campaign (its JSON: OUT.json)
  "$bin" fuzz --source "$1" --runs "$runs" --seed 1 --out "$2" \
    --json "$2.json" 2>&1
}

clean=$(tree pristine)
set +e
out=$(fuzz "$clean" "$TEST_TMPDIR/out-pristine")
rc=$?
set -e
if [ "$rc" -eq 0 ]; then
  echo "ok: the unpatched tree is clean over $runs executions"
else
  echo "FAIL: the unpatched tree: exit $rc, want 0"; echo "$out"
  fails=$((fails + 1))
fi

while read -r name title; do
  case $name in '#'* | '') continue ;; esac
  d=$(tree "$name")
  patch -s -p1 -d "$d/fs/squashfs" < "$patches/$name.patch"
  o="$TEST_TMPDIR/out-$name"
  set +e
  out=$(fuzz "$d" "$o")
  rc=$?
  set -e
  if [ "$rc" -ne 1 ]; then
    echo "FAIL: $name: exit $rc, want 1 (a finding)"; echo "$out"
    fails=$((fails + 1)); continue
  fi
  # The finding's number in the table: "N    TITLE ... FIRST SECONDS COUNT".
  row=$(grep -E "^[0-9]+ +$title " <<<"$out" | head -1 || true)
  if [ -z "$row" ]; then
    echo "FAIL: $name: no finding titled /$title/"; echo "$out"
    fails=$((fails + 1)); continue
  fi
  n=${row%% *}
  image="$o/finding-$n.sqfs"
  if [ $(($(stat -c %s "$image") % 4096)) -ne 0 ]; then
    echo "FAIL: $name: $image is not padded to whole 4 KiB blocks"
    fails=$((fails + 1)); continue
  fi
  set +e
  replay=$("$bin" fuzz --replay "$image" --source "$d" 2>&1)
  rc=$?
  set -e
  if [ "$rc" -ne 1 ] || ! grep -qE "^$title" <<<"$replay"; then
    echo "FAIL: $name: --replay $image did not report /$title/"
    echo "$replay"; fails=$((fails + 1)); continue
  fi
  if ! fixed=$("$bin" fuzz --replay "$image" --source "$clean" 2>&1); then
    echo "FAIL: $name: the unpatched tree reports on the finding's image"
    echo "$fixed"; fails=$((fails + 1)); continue
  fi
  grep -q '"functions_reached"' "$o.json" || {
    echo "FAIL: $name: the JSON has no functions_reached"; fails=$((fails + 1))
  }
  echo "ok: $name: $(awk '{print $(NF-2), "executions,", $(NF-1), "s:"}' <<<"$row") $(sed -E 's/^[0-9]+ +//; s/ +[0-9.]+ +[0-9.]+ +[0-9]+$//' <<<"$row")"
done < "$patches/expected.txt"

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
