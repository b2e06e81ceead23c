// SPDX-License-Identifier: GPL-2.0-only
// This file implements decoding and validation of the 96-byte SquashFS 4.0
// superblock.
#ifndef SQUASHLAB_READER_SUPERBLOCK_H_
#define SQUASHLAB_READER_SUPERBLOCK_H_

#include <cstdint>
#include <string>

#include "reader/le_decode.h"
#include "reader/status.h"

namespace squashlab {

inline constexpr uint32_t kSquashfsMagic = 0x73717368;  // "hsqs"
inline constexpr size_t kSuperblockSize = 96;
inline constexpr uint64_t kInvalidTable = ~uint64_t{0};

enum class CompressorId : uint16_t {
  kGzip = 1,
  kLzma = 2,
  kLzo = 3,
  kXz = 4,
  kLz4 = 5,
  kZstd = 6,
};
const char* CompressorName(CompressorId id);

// Superblock flags (the SQUASHFS_*_FLAG bits).
enum SuperblockFlag : uint16_t {
  kUncompressedInodes = 0x0001,
  kUncompressedData = 0x0002,
  kCheck = 0x0004,
  kUncompressedFragments = 0x0008,
  kNoFragments = 0x0010,
  kAlwaysFragments = 0x0020,
  kDuplicates = 0x0040,
  kExportable = 0x0080,
  kUncompressedXattrs = 0x0100,
  kNoXattrs = 0x0200,
  kCompressorOptions = 0x0400,
  kUncompressedIds = 0x0800,
};
// "uncompressed-inodes,no-fragments,..." for the flags set.
std::string FlagNames(uint16_t flags);

struct Superblock {
  uint32_t inode_count = 0;
  uint32_t mod_time = 0;
  uint32_t block_size = 0;
  uint32_t fragment_count = 0;
  CompressorId compressor = CompressorId::kGzip;
  uint16_t block_log = 0;
  uint16_t flags = 0;
  uint16_t id_count = 0;
  uint16_t version_major = 0;
  uint16_t version_minor = 0;
  uint64_t root_inode_ref = 0;
  uint64_t bytes_used = 0;
  uint64_t id_table_start = 0;
  uint64_t xattr_id_table_start = 0;
  uint64_t inode_table_start = 0;
  uint64_t directory_table_start = 0;
  uint64_t fragment_table_start = 0;
  uint64_t export_table_start = 0;

  bool has(SuperblockFlag f) const { return (flags & f) != 0; }
};

// Decodes and validates: magic, version 4.0, block_size == 1 << block_log in
// 4K..1M, known compressor, bytes_used within image_size, table order, counts.
StatusOr<Superblock> DecodeSuperblock(ByteSpan bytes, uint64_t image_size);

}  // namespace squashlab

#endif  // SQUASHLAB_READER_SUPERBLOCK_H_
