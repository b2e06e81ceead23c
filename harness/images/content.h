// SPDX-License-Identifier: GPL-2.0-only
// This file declares the trees the shapes pack: entries (directories,
// files, symlinks, hard links) with sizes, modes, times and user.* xattrs,
// and the deterministic bytes of each file, made by a splitmix64 of our own
// so that every machine makes the same images.
#ifndef SQUASHLAB_HARNESS_IMAGES_CONTENT_H_
#define SQUASHLAB_HARNESS_IMAGES_CONTENT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "harness/images/shape.h"

namespace squashlab::images {

// Raise when FillBytes or the parts change what they make: it is part of
// every cached image's key.
inline constexpr uint32_t kContentVersion = 1;

// The time every tree's entries start from (2020-01-02), and the
// superblock's creation time.
inline constexpr uint32_t kBaseTime = 1577934245;

inline constexpr uint32_t kPageSize = 4096;

enum class Fill : uint8_t {
  kBinary,  // 256-byte cells, 64 nibbles of their own: about 6:1
  kText,    // numbered 512-byte lines of a paragraph of words
  kRandom,  // splitmix64 output: the producers store it uncompressed
  kZero,    // all zero: sparse blocks
};

enum class EntryKind : uint8_t { kDir, kFile, kSymlink, kHardLink };

struct XattrPair {
  std::string name;  // "user.…"
  std::string value;
};

struct Entry {
  EntryKind kind = EntryKind::kFile;
  std::string path;  // relative to the root, '/'-separated
  uint32_t mode = 0644;
  uint32_t uid = 0;  // pack files only (mksquashfs and --pack-dir: root)
  uint32_t gid = 0;
  uint32_t mtime = kBaseTime;
  uint64_t size = 0;
  Fill fill = Fill::kBinary;
  uint64_t seed = 0;
  uint32_t hole_size = 0;       // the unit of `holes`: the block size
  std::vector<uint64_t> holes;  // indices of all-zero blocks
  std::string target;  // a symlink's target; a hard link's existing path
  std::vector<XattrPair> xattrs;
};

// Every directory is listed before what it holds. The root is implicit.
struct Tree {
  std::vector<Entry> entries;
};

Tree MakeTree(const Shape& shape);

// Bytes [offset, offset + n) of file `e`.
void FillBytes(const Entry& e, uint64_t offset, uint8_t* out, size_t n);

// The tree as one canonical text: every field of every entry.
std::string DescribeTree(const Tree& tree);

}  // namespace squashlab::images

#endif  // SQUASHLAB_HARNESS_IMAGES_CONTENT_H_
