#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# This file checks the fuzzing build as OSS-Fuzz and ClusterFuzzLite run it:
# .clusterfuzzlite/build.sh (which runs fuzz/build.sh) with only the
# environment they set — $CC $CXX $CFLAGS $CXXFLAGS $LIB_FUZZING_ENGINE
# $SRC $WORK $OUT, here with clang-14, ASan+UBSan and libFuzzer — then
# checks that every target has its seed corpus and dictionary and runs each
# target once over its whole seed corpus (no mutation: -runs=0), which must
# finish without a finding. Too slow for ./test.sh (it compiles the model
# with the sanitizers, ~15 CPU minutes here); run it after changing
# fuzz/build.sh or a target:
#   fuzz/check_oss_fuzz_build.sh [OUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
out=${1:-$scratch/out}
mkdir -p "$out" "$scratch/src" "$scratch/work"
ln -s "$PWD" "$scratch/src/squashlab"
flags="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address,undefined"
flags="$flags -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link"
env -i PATH="$PATH" HOME="${HOME:-/root}" \
  CC=clang-14 CXX=clang++-14 CFLAGS="$flags" CXXFLAGS="$flags" \
  LIB_FUZZING_ENGINE=-fsanitize=fuzzer SRC="$scratch/src" WORK="$scratch/work" OUT="$out" \
  bash -eu .clusterfuzzlite/build.sh
targets=$(cd "$out" && ls | grep '_fuzzer$')
[ -n "$targets" ] || { echo "no targets in $out"; exit 1; }
bad=0
for t in $targets; do
  corpus="$scratch/corpus/$t"
  mkdir -p "$corpus"
  for f in "${t}_seed_corpus.zip" "$t.dict"; do
    [ -s "$out/$f" ] || { echo "$t: no $f"; bad=1; }
  done
  [ -s "$out/${t}_seed_corpus.zip" ] || continue
  unzip -qo "$out/${t}_seed_corpus.zip" -d "$corpus"
  n=$(find "$corpus" -type f | wc -l)
  if "$out/$t" -runs=0 -dict="$out/$t.dict" -rss_limit_mb=2560 -timeout=60 \
    "$corpus" >"$scratch/$t.log" 2>&1; then
    echo "$t: $n seeds, clean"
  else
    echo "$t: FAILED on its seed corpus ($n seeds):"
    tail -n 20 "$scratch/$t.log"
    bad=1
  fi
done
echo "check_oss_fuzz_build: $(echo "$targets" | wc -w) targets, $([ $bad -eq 0 ] && echo ok || echo FAILED)"
exit $bad
