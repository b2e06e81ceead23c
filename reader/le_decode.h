// SPDX-License-Identifier: GPL-2.0-only
// This file implements little-endian decoding over bounded byte spans: the
// only way reader code turns on-disk bytes into integers.
#ifndef SQUASHLAB_READER_LE_DECODE_H_
#define SQUASHLAB_READER_LE_DECODE_H_

#include <cstddef>
#include <cstdint>
#include <span>

namespace squashlab {

using ByteSpan = std::span<const uint8_t>;

// REQUIRES: p points at 2/4/8 readable bytes.
inline uint16_t DecodeLe16(const uint8_t* p) {
  return static_cast<uint16_t>(p[0] | (p[1] << 8));
}
inline uint32_t DecodeLe32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
         (static_cast<uint32_t>(p[2]) << 16) |
         (static_cast<uint32_t>(p[3]) << 24);
}
inline uint64_t DecodeLe64(const uint8_t* p) {
  return static_cast<uint64_t>(DecodeLe32(p)) |
         (static_cast<uint64_t>(DecodeLe32(p + 4)) << 32);
}

// Reads fields one after another from a span; every read is bounds-checked and
// a read past the end sets a sticky failure flag and yields zero.
class LeCursor {
 public:
  explicit LeCursor(ByteSpan bytes) : bytes_(bytes) {}
  uint16_t U16() { return Take(2) ? DecodeLe16(last_) : 0; }
  uint32_t U32() { return Take(4) ? DecodeLe32(last_) : 0; }
  uint64_t U64() { return Take(8) ? DecodeLe64(last_) : 0; }
  // Returns the next n bytes, or an empty span (and failure) past the end.
  ByteSpan Bytes(size_t n) { return Take(n) ? ByteSpan(last_, n) : ByteSpan(); }
  bool ok() const { return ok_; }
  size_t position() const { return pos_; }

 private:
  bool Take(size_t n) {
    if (!ok_ || n > bytes_.size() - pos_) {
      ok_ = false;
      return false;
    }
    last_ = bytes_.data() + pos_;
    pos_ += n;
    return true;
  }
  ByteSpan bytes_;
  size_t pos_ = 0;
  const uint8_t* last_ = nullptr;
  bool ok_ = true;
};

}  // namespace squashlab

#endif  // SQUASHLAB_READER_LE_DECODE_H_
