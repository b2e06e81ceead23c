// SPDX-License-Identifier: GPL-2.0-only
// This file implements LookupTable, validating the pointer array on open.
#include "reader/lookup_table.h"

#include <algorithm>

namespace squashlab {

StatusOr<std::unique_ptr<LookupTable>> LookupTable::Open(
    const ImageBytes* bytes, Decompressor* decompressor,
    const std::string& name, uint64_t array_start, uint64_t count,
    uint32_t entry_size, uint64_t lower_bound) {
  const uint64_t per_block = kMetadataBlockSize / entry_size;
  const uint64_t nblocks = (count + per_block - 1) / per_block;
  // The pointer array must fit in the image: this bounds the allocation.
  if (nblocks > bytes->size() / 8)
    return Status::Corruption(name + " table: " + std::to_string(count) +
                              " entries cannot fit in the image");
  SQL_ASSIGN_OR_RETURN(ByteSpan array, bytes->Slice(array_start, nblocks * 8));
  std::vector<uint64_t> pointers(nblocks);
  for (uint64_t i = 0; i < nblocks; ++i) {
    uint64_t p = DecodeLe64(array.data() + i * 8);
    const uint64_t prev = i == 0 ? lower_bound : pointers[i - 1] + 2;
    if (p < prev || p >= array_start)
      return Status::Corruption(name + " table: block pointer " +
                                std::to_string(i) + " (" + std::to_string(p) +
                                ") is out of order or out of range");
    if (i > 0 && p - pointers[i - 1] > kMetadataBlockSize + 2)
      return Status::Corruption(name + " table: block " +
                                std::to_string(i - 1) +
                                " is longer than a metadata block");
    pointers[i] = p;
  }
  auto reader = std::make_unique<MetadataReader>(bytes, decompressor,
                                                 lower_bound, array_start);
  return std::unique_ptr<LookupTable>(
      new LookupTable(name, array_start, count, entry_size, std::move(pointers),
                      std::move(reader)));
}

Status LookupTable::Entry(uint64_t i, uint8_t* out) {
  if (i >= count_)
    return Status::Corruption(name_ + " index " + std::to_string(i) +
                              " is out of range (" + std::to_string(count_) +
                              " entries)");
  const uint64_t byte = i * entry_size_;
  MetaPos pos{pointers_[byte / kMetadataBlockSize],
              static_cast<uint32_t>(byte % kMetadataBlockSize)};
  SQL_ASSIGN_OR_RETURN(const MetadataReader::Block* b,
                       reader_->ReadBlock(pos.block));
  if (pos.offset + entry_size_ > b->data.size())
    return Status::Corruption(name_ + " index " + std::to_string(i) +
                              " is past the end of its metadata block");
  std::copy_n(b->data.data() + pos.offset, entry_size_, out);
  return Status::Ok();
}

}  // namespace squashlab
