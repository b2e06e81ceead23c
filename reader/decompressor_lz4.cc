// SPDX-License-Identifier: GPL-2.0-only
// This file implements the lz4 (block format) decompressor.
#include <lz4.h>

#include <climits>

#include "reader/decompressor.h"

namespace squashlab {
namespace {

class Lz4Decompressor final : public Decompressor {
 public:
  StatusOr<size_t> Decompress(ByteSpan src, std::span<uint8_t> dst) override {
    if (src.size() > INT_MAX || dst.size() > INT_MAX)
      return Status::Corruption("lz4 block too large");
    int n = LZ4_decompress_safe(reinterpret_cast<const char*>(src.data()),
                                reinterpret_cast<char*>(dst.data()),
                                static_cast<int>(src.size()),
                                static_cast<int>(dst.size()));
    if (n < 0)
      return Status::Corruption(
          "lz4 block is corrupt or decompresses past its limit");
    return static_cast<size_t>(n);
  }
};

}  // namespace

std::unique_ptr<Decompressor> NewLz4Decompressor() {
  return std::make_unique<Lz4Decompressor>();
}

}  // namespace squashlab
