// SPDX-License-Identifier: GPL-2.0-only
// This file implements FuzzInput, the reader of the small little-endian
// headers that the per-layer fuzz targets put in front of their payload, and
// FUZZ_CHECK, the abort-on-violation check every target uses. seed_maker.cc
// writes the same headers.
#ifndef SQUASHLAB_FUZZ_FUZZ_INPUT_H_
#define SQUASHLAB_FUZZ_FUZZ_INPUT_H_

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "reader/decompressor.h"
#include "reader/superblock.h"

namespace squashlab::fuzz {

// Consumes fields from the front of the input; past the end every field
// reads as zero, so any byte string is a valid input.
class FuzzInput {
 public:
  FuzzInput(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  uint8_t U8() { return pos_ < size_ ? data_[pos_++] : 0; }
  uint16_t U16() { return static_cast<uint16_t>(U8() | (U8() << 8)); }
  uint32_t U32() { return U16() | (static_cast<uint32_t>(U16()) << 16); }
  uint64_t U64() { return U32() | (static_cast<uint64_t>(U32()) << 32); }
  std::string Bytes(size_t n) {
    std::string s;
    while (n-- > 0 && pos_ < size_)
      s.push_back(static_cast<char>(data_[pos_++]));
    return s;
  }
  // Everything not consumed yet.
  std::vector<uint8_t> Rest() {
    return std::vector<uint8_t>(data_ + pos_, data_ + size_);
  }
  size_t remaining() const { return size_ - pos_; }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

// Maps any byte to one of the six compressors (1..6).
inline CompressorId PickCompressor(uint8_t b) {
  return static_cast<CompressorId>(b % 6 + 1);
}

}  // namespace squashlab::fuzz

// A property that must hold for every input; a violation is a finding.
#define FUZZ_CHECK(cond)                                               \
  do {                                                                 \
    if (!(cond)) {                                                     \
      std::fprintf(stderr, "%s:%d: FUZZ_CHECK failed: %s\n", __FILE__, \
                   __LINE__, #cond);                                   \
      std::abort();                                                    \
    }                                                                  \
  } while (0)

#endif  // SQUASHLAB_FUZZ_FUZZ_INPUT_H_
