#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# harness/real_kernels_matrix.sh on small budgets: PCT rows on the default
# image and on an image of another codec, exhaustive rows per seed, and a row
# whose verify fails (a device that does not exist) turning the script's
# status and the row's counts into a failure.
set -euo pipefail
bin="$TEST_SRCDIR/squashlab/cli/squashlab"
matrix="$TEST_SRCDIR/squashlab/harness/real_kernels_matrix.sh"
out="$TEST_TMPDIR/m"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# The CSV's row for PLAN,"DEVICE",CODEC,SEED (without the header).
row() { grep "^$1,\"$2\",$3,$4," "$out/matrix.csv" || true; }

"$matrix" "$bin" "$out" 20 none@ram eio@ram@zstd >"$out.md" 2>"$out.err" \
  || fail "the PCT rows exited $?: $(cat "$out.err")"
[ "$(wc -l <"$out/matrix.csv")" -eq 3 ] || fail "want 2 rows: $(cat "$out/matrix.csv")"
for r in "none ram gzip" "eio ram zstd"; do
  set -- $r
  line=$(row "$1" "$2" "$3" 1)
  # plan,device,codec,seed,strategy,cells,runs,exhausted,clean,failing,cpu
  IFS=, read -r _ _ _ _ strategy cells runs _ clean failing _ <<<"$line"
  [ "$strategy" = pct ] && [ "$cells" = 6 ] && [ "$clean" = 6 ] &&
    [ "$failing" = 0 ] && [ "$runs" = 20-20 ] || fail "row $r: '$line'"
done
"$bin" info "$out/images/small-zstd.sqfs" | grep -q 'compressor *zstd' ||
  fail "the zstd row's image is not zstd"
grep -q -- "--faults eio --image $out/images/small-zstd.sqfs" "$out.err" ||
  fail "the zstd row did not read its image: $(cat "$out.err")"
grep -q '^| eio | ram | zstd | 1 | 6 |' "$out.md" || fail "no markdown row: $(cat "$out.md")"

SQUASHLAB_MATRIX_BOUND=0 SQUASHLAB_MATRIX_SEEDS="1 2" \
  "$matrix" "$bin" "$out/x" 100000 bitflip@ram >/dev/null 2>&1 ||
  fail "the exhaustive rows failed"
for seed in 1 2; do
  line=$(grep "^bitflip,\"ram\",gzip,$seed,exhaustive,6,[0-9-]*,6,6,0," "$out/x/matrix.csv" || true)
  [ -n "$line" ] || fail "exhaustive seed $seed: $(cat "$out/x/matrix.csv")"
done

if "$matrix" "$bin" "$out/bad" 5 none@no-such-device >/dev/null 2>&1; then
  fail "a row whose verify fails left the status 0"
fi
grep -q '^none,"no-such-device",gzip,1,pct,0,0,0,0,0,' "$out/bad/matrix.csv" ||
  fail "the failed row: $(cat "$out/bad/matrix.csv")"

[ "$fails" -eq 0 ] && echo "PASS" || { echo "$fails failure(s)"; exit 1; }
