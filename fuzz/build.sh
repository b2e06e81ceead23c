#!/usr/bin/env bash
# OSS-Fuzz / ClusterFuzzLite build script: compiles the reader (and the CLI's
# extraction code) and every fuzz target directly with $CXX $CXXFLAGS, links
# each with $LIB_FUZZING_ENGINE, and puts beside each binary in $OUT its
# <target>_seed_corpus.zip (cut from mksquashfs images) and <target>.dict.
# No Bazel. Needs: clang, mksquashfs, python3, zip, and the codec development
# packages (zlib, zstd, lz4, liblzma, lzo2).
# Test here: CC=clang-14 CXX=clang++-14 CFLAGS="-O1 -g -fsanitize=address,fuzzer-no-link" \
#   CXXFLAGS="$CFLAGS" LIB_FUZZING_ENGINE=-fsanitize=fuzzer OUT=/tmp/out fuzz/build.sh
set -euo pipefail
cd "$(dirname "$0")/.."
: "${CXX:?}" "${OUT:?}" "${LIB_FUZZING_ENGINE:?}"
CC=${CC:-cc} CFLAGS=${CFLAGS:-} CXXFLAGS=${CXXFLAGS:-}
mkdir -p "$OUT"
work=${WORK:-$(mktemp -d)}/squashlab-build
mkdir -p "$work/obj" "$work/plain"
libs="-lz -lzstd -llz4 -llzma -llzo2 -lpthread"
std="-std=c++20 -I."

reader_srcs=$(ls reader/*.cc | grep -v '_test\.cc$')
cli_srcs=$(ls cli/*.cc | grep -v -e '_test\.cc$' -e '/main\.cc$')

# 1. The library objects, with the fuzzing flags.
objs=()
for src in $reader_srcs $cli_srcs; do
  obj=$work/obj/$(echo "$src" | tr / _).o
  $CXX $CXXFLAGS $std -c "$src" -o "$obj"
  objs+=("$obj")
done

# 2. One binary per target.
build_target() {  # NAME SOURCE [extra flags...]
  local name=$1 src=$2
  shift 2
  $CXX $CXXFLAGS $std "$@" -c "$src" -o "$work/obj/$name.o"
  $CXX $CXXFLAGS "$work/obj/$name.o" "${objs[@]}" $LIB_FUZZING_ENGINE $libs -o "$OUT/$name"
}
for t in image extract superblock metadata inode directory tables; do
  build_target "${t}_fuzzer" "fuzz/${t}_fuzzer.cc"
done
codec_id=1
for codec in gzip lzma lzo xz lz4 zstd; do
  build_target "decompress_${codec}_fuzzer" fuzz/decompress_fuzzer.cc -DSQUASHLAB_FUZZ_CODEC=$codec_id
  codec_id=$((codec_id + 1))
done

# 3. Seed corpora: seed_maker is built without sanitizers or fuzzing flags.
$CXX $std -O1 $reader_srcs fuzz/seed_maker.cc $libs -o "$work/plain/seed_maker"
fuzz/make_seeds.sh fuzz/make_seed_tree.py "$work/plain/seed_maker" "$OUT"

# 4. Dictionaries.
for t in image extract superblock metadata inode directory tables; do
  cp fuzz/dicts/squashfs.dict "$OUT/${t}_fuzzer.dict"
done
for codec in gzip lzma lzo xz lz4 zstd; do
  cp fuzz/dicts/decompress.dict "$OUT/decompress_${codec}_fuzzer.dict"
done
echo "build.sh: $(ls "$OUT" | grep -c '_fuzzer$') targets in $OUT"
