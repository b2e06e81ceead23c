#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# This file checks the fuzzing build as OSS-Fuzz and ClusterFuzzLite run it:
# .clusterfuzzlite/build.sh (which runs fuzz/build.sh) with only the
# environment they set — $CC $CXX $CFLAGS $CXXFLAGS $LIB_FUZZING_ENGINE
# $SRC $WORK $OUT, here with clang-14, ASan+UBSan and libFuzzer — then
# checks that every target has its seed corpus and dictionary and runs each
# target once over its whole seed corpus (no mutation: -runs=0), which must
# finish without a finding. Run by ./test.sh, and by hand after changing
# fuzz/build.sh or a target:
#   fuzz/check_oss_fuzz_build.sh [OUT_DIR]
# Compiles go through ccache when it is installed: ~4 CPU minutes with an
# empty cache here (the model compiled with the sanitizers), ~15 s when
# nothing changed.
# --tools only checks for the tools the build needs (exit 1 if one is
# missing); without them the check exits 2 and builds nothing.
#   fuzz/check_oss_fuzz_build.sh --tools
set -euo pipefail
cd "$(dirname "$0")/.."
missing=()
for tool in clang-14 clang++-14 mksquashfs python3 zip unzip xxd; do
  command -v "$tool" >/dev/null || missing+=("$tool")
done
if [ "${1:-}" = --tools ]; then
  [ ${#missing[@]} -eq 0 ] && echo "all tools present" && exit 0
  echo "missing ${missing[*]}"
  exit 1
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "check_oss_fuzz_build: cannot run, missing ${missing[*]}"
  exit 2
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
out=${1:-$scratch/out}
mkdir -p "$out" "$scratch/src" "$scratch/work"
ln -s "$PWD" "$scratch/src/squashlab"
flags="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address,undefined"
flags="$flags -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link"
# Through ccache where it is installed (test.sh runs this check on every
# change): the same compiles, done once. The source directory is a new
# scratch path each run, so the working directory the debug information
# names is left out of ccache's key.
cc=clang-14 cxx=clang++-14 ccache_env=()
if command -v ccache >/dev/null; then
  cc="ccache $cc" cxx="ccache $cxx" ccache_env=(CCACHE_NOHASHDIR=1)
fi
env -i PATH="$PATH" HOME="${HOME:-/root}" "${ccache_env[@]}" \
  CC="$cc" CXX="$cxx" CFLAGS="$flags" CXXFLAGS="$flags" \
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
