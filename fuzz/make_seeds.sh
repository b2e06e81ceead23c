#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Packs make_seed_tree.py's tree with mksquashfs under every compressor and
# option set, then cuts each fuzz target's seed corpus out of the images with
# seed_maker and zips it as OUT_DIR/<target>_seed_corpus.zip (OSS-Fuzz names).
# usage: make_seeds.sh MAKE_SEED_TREE_PY SEED_MAKER OUT_DIR
set -euo pipefail
tree_py=$1 seed_maker=$2 out=$3
case $out in /*) ;; *) out=$PWD/$out ;; esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$tree_py" "$work/tree"
mkdir "$work/img"
mk() {  # NAME mksquashfs-options...
  local name=$1
  shift
  mksquashfs "$work/tree" "$work/img/$name.sqfs" -quiet -no-progress \
    -mkfs-time 1577934245 -all-time 1577934245 "$@" >/dev/null
}
for c in gzip lzma lzo lz4 xz zstd; do mk "$c" -comp "$c"; done
mk gzip_opts -comp gzip -Xcompression-level 1 -Xwindow-size 10
mk lzo_opts -comp lzo -Xalgorithm lzo1x_1
mk lz4_hc -comp lz4 -Xhc
mk xz_bcj -comp xz -Xbcj x86 -Xdict-size 8K
mk zstd_opts -comp zstd -Xcompression-level 3
mk raw -noI -noD -noF -noX
mk b4k_nofrag -comp zstd -b 4K -no-fragments
mk b1m_allfrag -comp gzip -b 1M -always-use-fragments
mk noxattr_noexport -comp lz4 -no-xattrs -no-exports
mk nosparse_nodup -comp gzip -no-sparse -no-duplicates
"$seed_maker" "$work/seeds" "$work"/img/*.sqfs
cp -r "$work/seeds/image" "$work/seeds/extract"
for dir in "$work"/seeds/*/; do
  target=$(basename "$dir")
  (cd "$dir" && find . -type f | sort | zip -q -X -@ "$out/${target}_fuzzer_seed_corpus.zip")
done
