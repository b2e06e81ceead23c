#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# OSS-Fuzz / ClusterFuzzLite build script: compiles the reader (and the CLI's
# extraction code), the model (for schedule_fuzzer) and every fuzz target
# directly with $CXX $CXXFLAGS, links each with $LIB_FUZZING_ENGINE, and puts
# beside each binary in $OUT its <target>_seed_corpus.zip (cut from
# mksquashfs images, or made by make_schedule_seeds.py) and <target>.dict.
# No Bazel. Needs: clang, mksquashfs, python3, zip, xxd, and the codec and
# Boost.Context development packages (libdeflate, zlib, zstd, lz4, liblzma,
# lzo2, libboost-context). schedule_async2013_fuzzer is not emitted: it
# fuzzes a variant with known bugs (a benchmark, fuzz/measure_schedule.sh),
# so continuous fuzzing would only re-file them. Compiles run $JOBS at a time
# (default: every CPU).
# Test here: CC=clang-14 CXX=clang++-14 CFLAGS="-O1 -g -fsanitize=address,fuzzer-no-link" \
#   CXXFLAGS="$CFLAGS" LIB_FUZZING_ENGINE=-fsanitize=fuzzer OUT=/tmp/out fuzz/build.sh
set -euo pipefail
cd "$(dirname "$0")/.."
: "${CXX:?}" "${OUT:?}" "${LIB_FUZZING_ENGINE:?}"
CC=${CC:-cc} CFLAGS=${CFLAGS:-} CXXFLAGS=${CXXFLAGS:-}
mkdir -p "$OUT"
work=${WORK:-$(mktemp -d)}/squashlab-build
mkdir -p "$work/obj" "$work/plain"
libs="-ldeflate -lz -lzstd -llz4 -llzma -llzo2 -lpthread"
std="-std=c++20 -I."
jobs=${JOBS:-$(nproc)}
running=()
trap wait EXIT  # a failure leaves no compile running behind
spawn() {  # COMMAND...: runs it in the background, at most $jobs at once
  if [ ${#running[@]} -ge "$jobs" ]; then
    wait "${running[0]}"
    running=("${running[@]:1}")
  fi
  "$@" &
  running+=($!)
}
wait_all() {
  local pid
  for pid in "${running[@]}"; do wait "$pid"; done
  running=()
}

reader_srcs=$(ls reader/*.cc | grep -v '_test\.cc$')
cli_srcs=$(ls cli/*.cc | grep -v -e '_test\.cc$' -e '/main\.cc$')
model_srcs=$(ls model/base/*.cc model/sched/*.cc model/kernel/*.cc model/variants/*.cc model/mm/*.cc \
  model/linux/*.cc model/linux/bridge/*.cc harness/*.cc hw_emul/*.cc |
  grep -v -e '_test\.cc$' -e '_proptest\.cc$' -e '_bench\.cc$' -e '_main\.cc$')

# 1. The libraries (reader, CLI, and for schedule_fuzzer and the CLI's
# verify/repro commands the model layers, variants, MM layer, the real-kernel
# loader and its bridge (the harness links them; no module is built here),
# hw_emul devices and the harness's scenarios over the embedded image, made
# as //harness:small_image makes it), with the fuzzing flags, in one archive
# so that each target links only what it uses.
tree=$work/small_tree
rm -rf "$tree"
python3 harness/make_small_tree.py "$tree"
mksquashfs "$tree" "$work/small.sqfs" -quiet -no-progress -noappend -b 8192 -comp gzip -tailends \
  -mkfs-time 1577934245 -all-root >/dev/null
harness/embed.sh "$work/small.sqfs" "$work/small_image.cc" EmbeddedSmallImage
objs=()
for src in $reader_srcs $cli_srcs $model_srcs "$work/small_image.cc"; do
  obj=$work/obj/$(echo "${src#"$work/"}" | tr / _).o
  spawn $CXX $CXXFLAGS $std -c "$src" -o "$obj"
  objs+=("$obj")
done
wait_all
rm -f "$work/libsquashlab.a"
ar rcs "$work/libsquashlab.a" "${objs[@]}"
libs="$libs -lboost_context -ldl"

# 2. One binary per target.
build_target() {  # NAME SOURCE [extra flags...]
  local name=$1 src=$2
  shift 2
  $CXX $CXXFLAGS $std "$@" -c "$src" -o "$work/obj/$name.o"
  $CXX $CXXFLAGS "$work/obj/$name.o" "$work/libsquashlab.a" $LIB_FUZZING_ENGINE $libs \
    -o "$OUT/$name"
}
for t in image extract superblock metadata inode directory tables; do
  spawn build_target "${t}_fuzzer" "fuzz/${t}_fuzzer.cc"
done
codec_id=1
for codec in gzip lzma lzo xz lz4 zstd; do
  spawn build_target "decompress_${codec}_fuzzer" fuzz/decompress_fuzzer.cc \
    -DSQUASHLAB_FUZZ_CODEC=$codec_id
  codec_id=$((codec_id + 1))
done
build_schedule_fuzzer() {
  $CXX $CXXFLAGS $std -c fuzz/schedule_case.cc -o "$work/obj/schedule_case.o"
  $CXX $CXXFLAGS $std -c fuzz/schedule_fuzzer.cc -o "$work/obj/schedule_fuzzer.o"
  $CXX $CXXFLAGS "$work/obj/schedule_fuzzer.o" "$work/obj/schedule_case.o" "$work/libsquashlab.a" \
    $LIB_FUZZING_ENGINE $libs -o "$OUT/schedule_fuzzer"
}
spawn build_schedule_fuzzer
wait_all

# 3. Seed corpora: seed_maker is built without sanitizers or fuzzing flags.
$CXX $std -O1 $reader_srcs fuzz/seed_maker.cc $libs -o "$work/plain/seed_maker"
fuzz/make_seeds.sh fuzz/make_seed_tree.py "$work/plain/seed_maker" "$OUT"
python3 fuzz/make_schedule_seeds.py "$OUT/schedule_fuzzer_seed_corpus.zip"

# 4. Dictionaries.
for t in image extract superblock metadata inode directory tables; do
  cp fuzz/dicts/squashfs.dict "$OUT/${t}_fuzzer.dict"
done
for codec in gzip lzma lzo xz lz4 zstd; do
  cp fuzz/dicts/decompress.dict "$OUT/decompress_${codec}_fuzzer.dict"
done
cp fuzz/dicts/schedule.dict "$OUT/schedule_fuzzer.dict"
echo "build.sh: $(ls "$OUT" | grep -c '_fuzzer$') targets in $OUT"
