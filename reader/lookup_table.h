// SPDX-License-Identifier: GPL-2.0-only
// This file implements LookupTable: the fixed-size-entry tables (ids,
// fragments, export, xattr ids) stored as metadata blocks and located through
// an array of 64-bit block pointers.
#ifndef SQUASHLAB_READER_LOOKUP_TABLE_H_
#define SQUASHLAB_READER_LOOKUP_TABLE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "reader/metadata_reader.h"

namespace squashlab {

// Thread-compatible.
class LookupTable {
 public:
  // `array_start` is where the pointer array lives; `count` entries of
  // `entry_size` bytes (a divisor of 8192). Every block pointer must lie in
  // [lower_bound, array_start), increase, and be at most one block apart.
  static StatusOr<std::unique_ptr<LookupTable>> Open(
      const ImageBytes* bytes, Decompressor* decompressor,
      const std::string& name, uint64_t array_start, uint64_t count,
      uint32_t entry_size, uint64_t lower_bound);

  // Copies entry i (entry_size bytes) into out.
  Status Entry(uint64_t i, uint8_t* out);
  uint64_t count() const { return count_; }
  // The lowest image offset the table occupies (its first metadata block).
  uint64_t first_block() const {
    return pointers_.empty() ? array_start_ : pointers_[0];
  }
  uint64_t array_start() const { return array_start_; }
  uint64_t array_end() const { return array_start_ + pointers_.size() * 8; }

 private:
  LookupTable(std::string name, uint64_t array_start, uint64_t count,
              uint32_t entry_size, std::vector<uint64_t> pointers,
              std::unique_ptr<MetadataReader> reader)
      : name_(std::move(name)),
        array_start_(array_start),
        count_(count),
        entry_size_(entry_size),
        pointers_(std::move(pointers)),
        reader_(std::move(reader)) {}
  std::string name_;
  uint64_t array_start_;
  uint64_t count_;
  uint32_t entry_size_;
  std::vector<uint64_t> pointers_;
  std::unique_ptr<MetadataReader> reader_;
};

}  // namespace squashlab

#endif  // SQUASHLAB_READER_LOOKUP_TABLE_H_
