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
cli_srcs=$(ls cli/*.cc cli/reader/*.cc cli/lab/*.cc | grep -v -e '_test\.cc$' -e '/main\.cc$')
model_srcs=$(ls model/base/*.cc model/sched/*.cc model/kernel/*.cc model/kernel/checkers/*.cc model/variants/*.cc model/mm/*.cc \
  model/linux/*.cc model/linux/bridge/*.cc harness/*.cc harness/verify/*.cc harness/campaign/*.cc harness/realfuzz/*.cc hw_emul/*.cc |
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

# real_code_image_fuzzer: Linux 6.12's fs/squashfs and lib/ decompressors
# ($SQUASHLAB_LINUX_TREE, a kernel tree, or the linux-source-6.12 package's
# files) built into the module it loads, beside it in $OUT; the seeds are
# those of `squashlab fuzz`. Left out when there is no such tree.
ktree=${SQUASHLAB_LINUX_TREE:-}
ktar=/usr/src/linux-source-6.12.tar.xz
if [ -z "$ktree" ] && [ -f "$ktar" ]; then
  ktree=$work/linux-6.12
  rm -rf "$ktree"
  mkdir -p "$ktree"
  members=()
  for m in fs/squashfs lib/zlib_inflate lib/xz lib/zstd lib/lz4 lib/lzo lib/xxhash.c; do
    members+=("linux-source-6.12/$m")
  done
  for h in lz4 lzo xxhash xz zconf zlib zstd zstd_errors zstd_lib zutil; do
    members+=("linux-source-6.12/include/linux/$h.h")
  done
  tar -xJf "$ktar" -C "$ktree" --strip-components=1 "${members[@]}"
fi
build_real_code_fuzzer() {
  # The bridge's objects whole (Bazel's alwayslink): the module resolves
  # the kernel API against the executable, and nothing else calls them.
  local bridge=("$work"/obj/model_linux_bridge_*.o "$work"/obj/model_kernel_checkers_kasan.cc.o)
  $CXX $CXXFLAGS $std -c fuzz/real_code_image_fuzzer.cc -o "$work/obj/real_code_image_fuzzer.o"
  $CXX $CXXFLAGS "$work/obj/real_code_image_fuzzer.o" "${bridge[@]}" "$work/libsquashlab.a" \
    $LIB_FUZZING_ENGINE $libs -rdynamic -o "$OUT/real_code_image_fuzzer"
  $CXX $CXXFLAGS $std -c fuzz/real_code_module_main.cc -o "$work/obj/real_code_module.o"
  $CXX $CXXFLAGS "$work/obj/real_code_module.o" "${bridge[@]}" "$work/libsquashlab.a" $libs \
    -rdynamic -o "$work/real_code_module"
  SQUASHLAB_LINUX_INCLUDE=$PWD/model/linux/include SQUASHLAB_CACHE=$work/module-cache \
    "$work/real_code_module" "$ktree" "$OUT"
  $CXX $CXXFLAGS $std -c fuzz/real_code_seeds_main.cc -o "$work/obj/real_code_seeds.o"
  $CXX $CXXFLAGS "$work/obj/real_code_seeds.o" "$work/libsquashlab.a" $libs -rdynamic \
    -o "$work/real_code_seeds"
  rm -rf "$work/real_code_seeds_dir"
  mkdir -p "$work/real_code_seeds_dir"
  "$work/real_code_seeds" "$work/real_code_seeds_dir"
  (cd "$work/real_code_seeds_dir" && zip -q -X "$OUT/real_code_image_fuzzer_seed_corpus.zip" ./*.sqfs)
  cp fuzz/dicts/squashfs.dict "$OUT/real_code_image_fuzzer.dict"
}
if [ -n "$ktree" ]; then
  build_real_code_fuzzer
else
  echo "build.sh: no Linux 6.12 tree (SQUASHLAB_LINUX_TREE or $ktar): real_code_image_fuzzer left out"
fi

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
