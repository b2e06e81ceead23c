// SPDX-License-Identifier: GPL-2.0-only
// This file implements the decoding of SquashFS inodes of every type, basic
// and extended, from the inode table.
#ifndef SQUASHLAB_READER_INODE_H_
#define SQUASHLAB_READER_INODE_H_

#include <sys/types.h>

#include <cstdint>
#include <string>

#include "reader/metadata_reader.h"

namespace squashlab {

enum class InodeType : uint8_t {
  kDirectory = 1,
  kFile,
  kSymlink,
  kBlockDevice,
  kCharDevice,
  kFifo,
  kSocket,
};
const char* InodeTypeName(InodeType t);

inline constexpr uint32_t kNoFragment = 0xFFFFFFFFu;
inline constexpr uint32_t kNoXattr = 0xFFFFFFFFu;
// Symlink targets longer than a page are rejected, as the kernel does.
inline constexpr uint32_t kMaxSymlinkSize = 4096;

// An inode reference: (metadata block offset from the table start) << 16 |
// offset.
inline uint64_t MakeInodeRef(uint64_t block, uint32_t offset) {
  return (block << 16) | offset;
}

struct Inode {
  uint64_t ref = 0;
  InodeType type = InodeType::kFile;
  bool extended = false;
  uint16_t permissions = 0;  // the 12 permission bits
  uint16_t uid_index = 0;
  uint16_t gid_index = 0;
  uint32_t mtime = 0;
  uint32_t inode_number = 0;
  uint32_t nlink = 1;
  uint32_t xattr_index = kNoXattr;

  // Directories.
  uint32_t dir_start_block = 0;  // from the directory table start
  uint16_t dir_offset = 0;
  uint32_t dir_file_size = 0;  // listing size + 3, as stored
  uint32_t parent_inode = 0;
  uint16_t dir_index_count = 0;
  MetaPos dir_index_pos;  // first index entry, in the inode table

  // Regular files.
  uint64_t blocks_start = 0;
  uint64_t file_size = 0;
  uint64_t sparse_bytes = 0;
  uint32_t fragment_index = kNoFragment;
  uint32_t fragment_offset = 0;
  uint64_t block_count = 0;  // full blocks stored in the block list
  MetaPos block_list_pos;    // first block size, in the inode table

  std::string symlink_target;
  uint32_t rdev = 0;  // Linux new_encode_dev encoding

  bool has_fragment() const { return fragment_index != kNoFragment; }
  mode_t mode() const;  // S_IFMT bits | permissions
  uint32_t rdev_major() const { return (rdev & 0xfff00u) >> 8; }
  uint32_t rdev_minor() const {
    return (rdev & 0xffu) | ((rdev >> 12) & 0xfff00u);
  }
  // The size `ls -l` shows: file bytes, listing size + 3, target length, 0.
  uint64_t size() const;
};

// Decodes the inode at `ref` of the inode table read by `table`.
// block_size bounds the block count of files. Every field is validated.
StatusOr<Inode> DecodeInode(MetadataReader* table, uint64_t ref,
                            uint32_t block_size);

}  // namespace squashlab

#endif  // SQUASHLAB_READER_INODE_H_
