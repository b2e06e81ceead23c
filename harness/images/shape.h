// SPDX-License-Identifier: GPL-2.0-only
// This file declares the image shape matrix: each Shape names a producer
// (mksquashfs or gensquashfs), a codec with its options, a block size,
// layout options and the parts of the tree it packs, as data.
#ifndef SQUASHLAB_HARNESS_IMAGES_SHAPE_H_
#define SQUASHLAB_HARNESS_IMAGES_SHAPE_H_

#include <cstdint>
#include <string>
#include <vector>

namespace squashlab::images {

enum class Producer {
  kMksquashfs,           // squashfs-tools, from the tree on disk
  kGensquashfs,          // squashfs-tools-ng, --pack-dir (the tree on disk)
  kGensquashfsPackFile,  // squashfs-tools-ng, a pack file describing it
};

// The parts a tree is made of (content.h makes each one's entries).
enum class Part {
  kBoundaries,      // root files of 0, 1, page-1..page+1, block-1..block+1..
  kTails,           // many small files + multi-block files with a tail
  kSparse,          // files with all-zero blocks
  kIncompressible,  // random bytes: blocks the producer stores uncompressed
  kText,            // text files, one and several blocks
  kDuplicates,      // files with identical content (shared data)
  kSubdirs,         // sub/ with files, a nested and an empty directory
  kSymlinks,        // relative, absolute, dangling, to a dir, 1000 bytes
  kManySymlinks,    // links/: 160 targets of 1 to 4095 bytes
  kXattrs,          // user.* on files and a directory: shared, binary, long
  kManyXattrs,      // xattrs/: 600 files, each its own xattr set
  kBigDir,          // many/: 700 entries (a directory index), a 255-byte name
  kNestedOnly,      // files only in subdirectories: a/b/file, ...
  kLarge,           // multi-MiB files
  kHardLinks,       // hard links (gensquashfs pack files only)
  kOneOfEach,       // one file of each layout, few blocks: for 1M blocks
};

struct Shape {
  std::string name = "";     // e.g. "gzip-128k-tailends"
  std::string summary = "";  // what it exercises, one line
  Producer producer = Producer::kMksquashfs;
  std::string codec = "gzip";  // as the producers name it
  uint32_t block_size = 128 * 1024;
  // The codec's options as the producer takes them: mksquashfs flags
  // ("-Xcompression-level", "1"), or gensquashfs's -X list ("level=1").
  std::vector<std::string> codec_options = {};
  // Other producer flags: "-tailends", "-noD", "--no-tail-packing", ...
  std::vector<std::string> options = {};
  std::vector<Part> parts = {};
  // Every file's bytes random (fragment blocks stored uncompressed too).
  bool incompressible = false;
};

// The matrix, in the order `squashlab mkimage --list` prints it.
const std::vector<Shape>& AllShapes();

// The names of the shapes verify explores by default.
const std::vector<std::string>& DefaultShapes();

// The shape called `name`, or nullptr.
const Shape* FindShape(const std::string& name);

const char* ProducerName(Producer p);
const char* PartName(Part p);

// "128K", "1M", "4K".
std::string BlockSizeName(uint32_t block_size);

// Everything that decides the image but the producer's version and the
// content generator's bytes, as one canonical line (the cache key's input).
std::string ShapeDefinition(const Shape& s);

}  // namespace squashlab::images

#endif  // SQUASHLAB_HARNESS_IMAGES_SHAPE_H_
