// SPDX-License-Identifier: GPL-2.0-only
// This file implements MetadataReader.
#include "reader/metadata_reader.h"

#include <algorithm>
#include <cstring>

namespace squashlab {

MetadataReader::MetadataReader(const ImageBytes* bytes,
                               Decompressor* decompressor, uint64_t start,
                               uint64_t limit)
    : bytes_(bytes),
      decompressor_(decompressor),
      start_(start),
      limit_(limit) {}

StatusOr<const MetadataReader::Block*> MetadataReader::ReadBlock(uint64_t pos) {
  auto it = cache_.find(pos);
  if (it != cache_.end()) {
    lru_.splice(lru_.begin(), lru_, it->second.lru_pos);
    return it->second.block.get();
  }
  if (pos < start_ || pos >= limit_ || limit_ - pos < 2)
    return Status::Corruption(
        "metadata block at " + std::to_string(pos) + " is outside its table [" +
        std::to_string(start_) + ", " + std::to_string(limit_) + ")");
  SQL_ASSIGN_OR_RETURN(ByteSpan header, bytes_->Slice(pos, 2));
  uint16_t h = DecodeLe16(header.data());
  const bool uncompressed = (h & 0x8000) != 0;
  const uint32_t size = h & 0x7fff;
  if (size == 0 || size > kMetadataBlockSize)
    return Status::Corruption("metadata block at " + std::to_string(pos) +
                              " has bad length " + std::to_string(size));
  if (size > limit_ - pos - 2)
    return Status::Corruption("metadata block at " + std::to_string(pos) +
                              " runs past the end of its table");
  SQL_ASSIGN_OR_RETURN(ByteSpan payload, bytes_->Slice(pos + 2, size));
  auto block = std::make_unique<Block>();
  if (uncompressed) {
    block->data.assign(payload.begin(), payload.end());
  } else {
    block->data.resize(kMetadataBlockSize);
    auto n = decompressor_->Decompress(payload, block->data);
    if (!n.ok())
      return n.status().WithContext("metadata block at " + std::to_string(pos));
    if (*n == 0)
      return Status::Corruption("metadata block at " + std::to_string(pos) +
                                " is empty");
    block->data.resize(*n);
  }
  block->next = pos + 2 + size;
  ++blocks_decoded_;
  if (cache_.size() >= kCacheBlocks) {
    cache_.erase(lru_.back());
    lru_.pop_back();
  }
  lru_.push_front(pos);
  const Block* result = block.get();
  cache_.emplace(pos, Entry{std::move(block), lru_.begin()});
  return result;
}

Status MetadataReader::Read(MetaPos* pos, size_t n, uint8_t* out) {
  while (n > 0) {
    SQL_ASSIGN_OR_RETURN(const Block* b, ReadBlock(pos->block));
    if (pos->offset > b->data.size())
      return Status::Corruption("offset " + std::to_string(pos->offset) +
                                " is past the end of metadata block at " +
                                std::to_string(pos->block));
    size_t avail = b->data.size() - pos->offset;
    if (avail == 0) {
      pos->block = b->next;
      pos->offset = 0;
      continue;
    }
    size_t take = std::min(avail, n);
    std::memcpy(out, b->data.data() + pos->offset, take);
    out += take;
    n -= take;
    pos->offset += static_cast<uint32_t>(take);
  }
  return Status::Ok();
}

StatusOr<std::vector<uint8_t>> MetadataReader::ReadVector(MetaPos* pos,
                                                          size_t n) {
  std::vector<uint8_t> v(n);
  SQL_RETURN_IF_ERROR(Read(pos, n, v.data()));
  return v;
}

}  // namespace squashlab
