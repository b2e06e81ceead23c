// SPDX-License-Identifier: GPL-2.0-only
// This file implements the map of a SquashFS image's fields that a
// structure-aware mutator changes: the superblock's, the table index
// pointers, every metadata block's length word (with its uncompressed
// bit), and, inside metadata blocks stored uncompressed (mksquashfs -noI
// and friends), the inodes' fields (type, ids, numbers, sizes, block
// lists, fragment index and offset), the directory headers and entries,
// the id, fragment, export and xattr id tables' entries, and the xattr
// table's key and value headers. Parsing is
// best effort over any bytes: it stops where the structure stops making
// sense and never reads past the image.
#ifndef SQUASHLAB_HARNESS_REALFUZZ_IMAGE_FIELDS_H_
#define SQUASHLAB_HARNESS_REALFUZZ_IMAGE_FIELDS_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace squashlab {

enum class FieldKind {
  kSuperblock,
  kTablePointer,     // an index array's entry: a metadata block's position
  kMetadataLength,   // a metadata block's length word (bit 15: uncompressed)
  kInode,            // an inode's header or body field
  kBlockLength,      // a data block's length word (bit 24: uncompressed)
  kDirectoryHeader,  // count, start block, inode number
  kDirectoryEntry,   // offset, inode offset, type, name size
  kTableEntry,       // id, fragment, export or xattr id entry
  kXattrEntry,       // an xattr's type, name size, value size, value ref
};

struct ImageField {
  FieldKind kind;
  std::string name;        // "sb.inodes", "inode.file_size", ...
  std::vector<size_t> at;  // the image offsets of its bytes, least first
  uint64_t Read(std::span<const uint8_t> image) const;
  void Write(std::span<uint8_t> image, uint64_t value) const;
};

struct ImageFields {
  std::vector<ImageField> fields;
  // Values worth trying in any field: the counts, sizes and table
  // positions this image declares (an index one past a count, a pointer
  // to another table, the block size).
  std::vector<uint64_t> values;
};

ImageFields ParseImageFields(std::span<const uint8_t> image);

}  // namespace squashlab

#endif  // SQUASHLAB_HARNESS_REALFUZZ_IMAGE_FIELDS_H_
