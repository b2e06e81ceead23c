// SPDX-License-Identifier: GPL-2.0-only
// This file implements the superblock fuzz target. Input: the image size
// (8 bytes, little-endian) then the superblock bytes. Whatever decodes must
// satisfy the invariants DecodeSuperblock documents.
#include <cstdint>

#include "fuzz/fuzz_input.h"
#include "reader/superblock.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace squashlab;
  fuzz::FuzzInput in(data, size);
  const uint64_t image_size = in.U64();
  std::vector<uint8_t> rest = in.Rest();
  auto sb = DecodeSuperblock(rest, image_size);
  if (!sb.ok()) return 0;
  FUZZ_CHECK(rest.size() >= kSuperblockSize);
  FUZZ_CHECK(sb->block_size == (1u << sb->block_log));
  FUZZ_CHECK(sb->block_size >= 4096 && sb->block_size <= (1u << 20));
  FUZZ_CHECK(sb->bytes_used <= image_size);
  FUZZ_CHECK(sb->inode_table_start >= kSuperblockSize);
  FUZZ_CHECK(sb->inode_table_start < sb->directory_table_start);
  // The directory table may be empty (an empty root), so the tables after it
  // may start where it starts.
  FUZZ_CHECK(sb->directory_table_start <= sb->id_table_start);
  FUZZ_CHECK(sb->id_table_start < sb->bytes_used);
  FUZZ_CHECK(sb->inode_count > 0 && sb->id_count > 0);
  FUZZ_CHECK(CompressorName(sb->compressor) != std::string("unknown"));
  FUZZ_CHECK(!FlagNames(sb->flags).empty());
  return 0;
}
