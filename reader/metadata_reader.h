// SPDX-License-Identifier: GPL-2.0-only
// This file implements MetadataReader: decoding of the 8 KiB metadata blocks
// (2-byte header, uncompressed bit) of one table region, with a small cache,
// and reads that run across block boundaries.
#ifndef SQUASHLAB_READER_METADATA_READER_H_
#define SQUASHLAB_READER_METADATA_READER_H_

#include <cstdint>
#include <list>
#include <memory>
#include <unordered_map>
#include <vector>

#include "reader/decompressor.h"
#include "reader/image_bytes.h"
#include "reader/status.h"

namespace squashlab {

inline constexpr uint32_t kMetadataBlockSize = 8192;

// A position inside a metadata region: the absolute image offset of a block
// header and an offset into that block's decoded bytes.
struct MetaPos {
  uint64_t block = 0;
  uint32_t offset = 0;
};

// Decodes the metadata blocks that start in [start, limit) of an image. The
// region bounds are fixed at creation and checked on every block.
// Thread-compatible (not thread-safe): the cache is unguarded.
class MetadataReader {
 public:
  // REQUIRES: bytes and decompressor outlive the reader.
  MetadataReader(const ImageBytes* bytes, Decompressor* decompressor,
                 uint64_t start, uint64_t limit);

  struct Block {
    std::vector<uint8_t> data;  // decoded bytes, 1..8192 of them
    uint64_t next = 0;          // absolute offset of the following block
  };
  // Decodes (or finds in the cache) the block whose header is at `pos`.
  StatusOr<const Block*> ReadBlock(uint64_t pos);

  // Copies `n` bytes from *pos into out, following blocks; advances *pos.
  Status Read(MetaPos* pos, size_t n, uint8_t* out);
  // Like Read into a fresh vector (n is the caller's bounded size).
  StatusOr<std::vector<uint8_t>> ReadVector(MetaPos* pos, size_t n);

  uint64_t start() const { return start_; }
  uint64_t limit() const { return limit_; }
  // Number of blocks decoded (cache misses), for tests and `info`.
  uint64_t blocks_decoded() const { return blocks_decoded_; }

 private:
  static constexpr size_t kCacheBlocks = 64;
  const ImageBytes* bytes_;
  Decompressor* decompressor_;
  uint64_t start_;
  uint64_t limit_;
  uint64_t blocks_decoded_ = 0;
  std::list<uint64_t> lru_;  // most recent at the front
  struct Entry {
    std::unique_ptr<Block> block;
    std::list<uint64_t>::iterator lru_pos;
  };
  std::unordered_map<uint64_t, Entry> cache_;
};

}  // namespace squashlab

#endif  // SQUASHLAB_READER_METADATA_READER_H_
