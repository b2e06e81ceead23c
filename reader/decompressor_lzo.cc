// SPDX-License-Identifier: GPL-2.0-only
// This file implements the lzo (lzo1x) decompressor.
#include <lzo/lzo1x.h>

#include <mutex>

#include "reader/decompressor.h"

namespace squashlab {
namespace {

class LzoDecompressor final : public Decompressor {
 public:
  LzoDecompressor() {
    static std::once_flag once;
    std::call_once(once, [] { lzo_init(); });
  }
  StatusOr<size_t> Decompress(ByteSpan src, std::span<uint8_t> dst) override {
    lzo_uint out_len = dst.size();
    int rc = lzo1x_decompress_safe(src.data(), src.size(), dst.data(), &out_len,
                                   nullptr);
    if (rc == LZO_E_OUTPUT_OVERRUN)
      return Status::Corruption("lzo block decompresses past its limit");
    if (rc != LZO_E_OK) return Status::Corruption("lzo block is corrupt");
    return static_cast<size_t>(out_len);
  }
};

}  // namespace

std::unique_ptr<Decompressor> NewLzoDecompressor() {
  return std::make_unique<LzoDecompressor>();
}

}  // namespace squashlab
