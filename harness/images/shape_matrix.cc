// SPDX-License-Identifier: GPL-2.0-only
// This file holds the shape matrix: every block size (4K to 1M), every
// codec the kernel reads with and without its options, tail ends in data
// blocks and in shared fragments, fragments off and forced, uncompressed
// data, fragments and metadata, and both producers. lzma is left out: the
// kernel does not read it.
#include "harness/images/shape.h"

namespace squashlab::images {
namespace {

using P = Part;
constexpr uint32_t K = 1024;

// The tree most shapes pack: every kind of file layout, a subdirectory,
// symlinks and xattrs.
const std::vector<Part> kStandard = {
    P::kBoundaries, P::kTails,   P::kSparse,   P::kIncompressible, P::kText,
    P::kDuplicates, P::kSubdirs, P::kSymlinks, P::kXattrs};

// 1M blocks: every layout in few blocks, so that xz stays near a second.
const std::vector<Part> kLean = {P::kOneOfEach, P::kSubdirs, P::kSymlinks};

// mksquashfs defaults, every block size, gzip options.
std::vector<Shape> GzipShapes() {
  return {
      {.name = "gzip-128k",
       .summary = "mksquashfs defaults: tails in data blocks, small files in "
                  "fragments, sparse and uncompressed blocks",
       .parts = kStandard},
      {.name = "gzip-128k-tailends",
       .summary = "-tailends: tails of multi-block files packed into shared "
                  "fragment blocks",
       .options = {"-tailends"},
       .parts = kStandard},
      {.name = "gzip-4k",
       .summary = "block = page: one page per block, 4K fragments",
       .block_size = 4 * K,
       .parts = kStandard},
      {.name = "gzip-4k-tailends",
       .summary = "4K blocks, tails packed into 4K fragments",
       .block_size = 4 * K,
       .options = {"-tailends"},
       .parts = {P::kBoundaries, P::kTails, P::kSparse}},
      {.name = "gzip-8k",
       .summary = "two pages per block: small blocks, readahead over blocks",
       .block_size = 8 * K,
       .parts = kStandard},
      {.name = "gzip-64k",
       .summary = "16 pages per block",
       .block_size = 64 * K,
       .parts = kStandard},
      {.name = "gzip-1m",
       .summary = "the largest block size: 256 pages per block",
       .block_size = 1024 * K,
       .parts = kLean},
      {.name = "gzip-128k-opts",
       .summary = "gzip options: level 1, window 2^9, strategies tried per "
                  "block",
       .codec_options = {"-Xcompression-level", "1", "-Xwindow-size", "9",
                         "-Xstrategy", "default,filtered,huffman_only,fixed"},
       .parts = kStandard},
  };
}

// Layouts and trees, gzip at 128K unless the row says otherwise.
std::vector<Shape> LayoutShapes() {
  return {
      {.name = "gzip-128k-large",
       .summary = "multi-MiB files: 6 MiB + 5, 2 MiB + page + 1",
       .parts = {P::kLarge, P::kBoundaries}},
      {.name = "gzip-128k-random",
       .summary = "incompressible content: uncompressed blocks and "
                  "uncompressed fragment blocks",
       .options = {"-tailends"},
       .parts = {P::kBoundaries, P::kTails},
       .incompressible = true},
      {.name = "gzip-128k-raw-data",
       .summary = "-noD -noF: data blocks and fragments stored uncompressed",
       .options = {"-noD", "-noF"},
       .parts = kStandard},
      {.name = "gzip-64k-raw-meta",
       .summary = "-noI -noX: inode, directory, id and xattr tables "
                  "uncompressed",
       .block_size = 64 * K,
       .options = {"-noI", "-noX"},
       .parts = kStandard},
      {.name = "gzip-128k-no-fragments",
       .summary = "-no-fragments: every tail and small file in its own block",
       .options = {"-no-fragments"},
       .parts = kStandard},
      {.name = "gzip-128k-always-fragments",
       .summary = "-always-use-fragments: tails of large files in fragments",
       .options = {"-always-use-fragments"},
       .parts = kStandard},
      {.name = "gzip-128k-bigdir",
       .summary = "a 702-entry directory (directory index), a 255-byte name",
       .parts = {P::kBigDir, P::kBoundaries}},
      {.name = "gzip-128k-nested",
       .summary = "files only in subdirectories (a/b/file), empty dirs",
       .parts = {P::kNestedOnly}},
      {.name = "gzip-128k-symlinks",
       .summary = "160 symlinks of 1 to 4095 bytes across metadata blocks",
       .parts = {P::kManySymlinks, P::kSymlinks, P::kBoundaries}},
      {.name = "gzip-128k-xattrs",
       .summary = "600 xattr sets (multi-block id and value tables), shared, "
                  "long and empty values",
       .parts = {P::kManyXattrs, P::kXattrs, P::kBoundaries}},
  };
}

std::vector<Shape> OtherCodecShapes() {
  return {
      {.name = "xz-128k",
       .summary = "xz defaults",
       .codec = "xz",
       .parts = kStandard},
      {.name = "xz-64k-opts",
       .summary = "xz options: BCJ filters (x86, arm) tried per block, "
                  "dictionary 50%",
       .codec = "xz",
       .block_size = 64 * K,
       .codec_options = {"-Xbcj", "x86,arm", "-Xdict-size", "50%"},
       .parts = kStandard},
      {.name = "xz-1m",
       .summary = "xz with 1M blocks and dictionary",
       .codec = "xz",
       .block_size = 1024 * K,
       .parts = kLean},
      {.name = "lzo-128k",
       .summary = "lzo defaults (lzo1x_999 level 8)",
       .codec = "lzo",
       .parts = kStandard},
      {.name = "lzo-8k-opts",
       .summary = "lzo options: algorithm lzo1x_1",
       .codec = "lzo",
       .block_size = 8 * K,
       .codec_options = {"-Xalgorithm", "lzo1x_1"},
       .parts = kStandard},
      {.name = "lz4-128k",
       .summary = "lz4 defaults",
       .codec = "lz4",
       .parts = kStandard},
      {.name = "lz4-4k-hc",
       .summary = "lz4 high compression, 4K blocks",
       .codec = "lz4",
       .block_size = 4 * K,
       .codec_options = {"-Xhc"},
       .parts = kStandard},
      {.name = "zstd-128k",
       .summary = "zstd defaults (level 15)",
       .codec = "zstd",
       .parts = kStandard},
      {.name = "zstd-4k-opts",
       .summary = "zstd level 22, 4K blocks",
       .codec = "zstd",
       .block_size = 4 * K,
       .codec_options = {"-Xcompression-level", "22"},
       .parts = kStandard},
      {.name = "zstd-1m-opts",
       .summary = "zstd level 3, 1M blocks",
       .codec = "zstd",
       .block_size = 1024 * K,
       .codec_options = {"-Xcompression-level", "3"},
       .parts = {P::kOneOfEach, P::kLarge}},
  };
}

std::vector<Shape> GensquashfsShapes() {
  return {
      {.name = "ng-xz-128k",
       .summary = "gensquashfs defaults: tail packing, its own layout",
       .producer = Producer::kGensquashfs,
       .codec = "xz",
       .parts = kStandard},
      {.name = "ng-gzip-64k-no-tail-packing",
       .summary = "gensquashfs --no-tail-packing, gzip level 1 window 10",
       .producer = Producer::kGensquashfs,
       .block_size = 64 * K,
       .codec_options = {"level=1,window=10"},
       .options = {"--no-tail-packing"},
       .parts = kStandard},
      {.name = "ng-lz4-4k-hc",
       .summary = "gensquashfs lz4 hc, 4K blocks",
       .producer = Producer::kGensquashfs,
       .codec = "lz4",
       .block_size = 4 * K,
       .codec_options = {"hc"},
       .parts = kStandard},
      {.name = "ng-zstd-8k-packfile",
       .summary = "gensquashfs from a pack file: hard links, owners, 8K "
                  "blocks",
       .producer = Producer::kGensquashfsPackFile,
       .codec = "zstd",
       .block_size = 8 * K,
       .parts = {P::kBoundaries, P::kTails, P::kSparse, P::kIncompressible,
                 P::kSubdirs, P::kSymlinks, P::kHardLinks}},
  };
}

}  // namespace

const std::vector<Shape>& AllShapes() {
  static const std::vector<Shape> all = [] {
    std::vector<Shape> v = GzipShapes();
    for (auto* more : {LayoutShapes, OtherCodecShapes, GensquashfsShapes})
      for (Shape& s : more()) v.push_back(std::move(s));
    return v;
  }();
  return all;
}

const std::vector<std::string>& DefaultShapes() {
  static const std::vector<std::string> names = {
      "gzip-128k", "gzip-128k-tailends", "gzip-8k", "xz-64k-opts"};
  return names;
}

}  // namespace squashlab::images
