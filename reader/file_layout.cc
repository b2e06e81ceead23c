// SPDX-License-Identifier: GPL-2.0-only
// This file implements BuildFileLayout. The block list is read in pieces, so
// memory grows with what the inode table really holds, not with an
// untrusted file size.
#include "reader/file_layout.h"

#include <algorithm>

namespace squashlab {

namespace {
constexpr uint32_t kUncompressedBit = 1u << 24;
constexpr uint32_t kSizeMask = kUncompressedBit - 1;
}  // namespace

StoredBlock DecodeBlockSize(uint64_t start, uint32_t word) {
  StoredBlock b;
  b.start = start;
  b.stored_size = word & kSizeMask;
  b.compressed = (word & kUncompressedBit) == 0;
  return b;
}

uint32_t FileLayout::chunk_length(uint64_t i) const {
  const uint64_t off = chunk_offset(i);
  return static_cast<uint32_t>(std::min<uint64_t>(block_size, file_size - off));
}

namespace {

Status CheckStored(const StoredBlock& b, uint32_t block_size,
                   uint64_t data_start, uint64_t data_end, const char* what) {
  if ((b.stored_size & ~kSizeMask) != 0 || b.stored_size > block_size)
    return Status::Corruption(std::string(what) + " stored size " +
                              std::to_string(b.stored_size) +
                              " exceeds the block size");
  if (b.stored_size == 0) return Status::Ok();
  if (b.start < data_start || b.start > data_end ||
      b.stored_size > data_end - b.start)
    return Status::Corruption(std::string(what) + " at " +
                              std::to_string(b.start) +
                              " lies outside the data area");
  return Status::Ok();
}

Status ReadBlockList(MetadataReader* inode_table, const Inode& file,
                     uint32_t block_size, uint64_t data_start,
                     uint64_t data_end, FileLayout* layout) {
  MetaPos pos = file.block_list_pos;
  uint64_t next = file.blocks_start;
  constexpr uint64_t kBatch = 1024;
  uint8_t buf[kBatch * 4];
  for (uint64_t done = 0; done < file.block_count;) {
    const uint64_t n = std::min(kBatch, file.block_count - done);
    SQL_RETURN_IF_ERROR(inode_table->Read(&pos, n * 4, buf));
    for (uint64_t i = 0; i < n; ++i) {
      StoredBlock b = DecodeBlockSize(next, DecodeLe32(buf + i * 4));
      if (b.stored_size == 0 && !b.compressed)
        return Status::Corruption("sparse block marked uncompressed");
      SQL_RETURN_IF_ERROR(
          CheckStored(b, block_size, data_start, data_end, "data block"));
      next += b.stored_size;
      layout->blocks.push_back(b);
    }
    done += n;
  }
  return Status::Ok();
}

}  // namespace

StatusOr<FileLayout> BuildFileLayout(MetadataReader* inode_table,
                                     LookupTable* fragments, const Inode& file,
                                     uint32_t block_size, uint64_t data_start,
                                     uint64_t data_end) {
  if (file.type != InodeType::kFile)
    return Status::InvalidArgument("not a regular file");
  FileLayout layout;
  layout.file_size = file.file_size;
  layout.block_size = block_size;
  SQL_RETURN_IF_ERROR(ReadBlockList(inode_table, file, block_size, data_start,
                                    data_end, &layout));
  if (file.has_fragment()) {
    if (fragments == nullptr)
      return Status::Corruption(
          "file uses a fragment but there is no fragment table");
    uint8_t e[16];
    SQL_RETURN_IF_ERROR(fragments->Entry(file.fragment_index, e));
    layout.has_tail = true;
    layout.fragment_index = file.fragment_index;
    layout.fragment = DecodeBlockSize(DecodeLe64(e), DecodeLe32(e + 8));
    layout.tail_offset = file.fragment_offset;
    if (layout.fragment.stored_size == 0)
      return Status::Corruption("fragment block of size 0");
    SQL_RETURN_IF_ERROR(CheckStored(layout.fragment, block_size, data_start,
                                    data_end, "fragment block"));
    const uint32_t tail = layout.chunk_length(layout.blocks.size());
    if (static_cast<uint64_t>(layout.tail_offset) + tail > block_size)
      return Status::Corruption(
          "file tail runs past the end of its fragment block");
  }
  return layout;
}

}  // namespace squashlab
