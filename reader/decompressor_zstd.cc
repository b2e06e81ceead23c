// SPDX-License-Identifier: GPL-2.0-only
// This file implements the zstd decompressor, reusing one context.
#include <zstd.h>

#include "reader/decompressor.h"

namespace squashlab {
namespace {

class ZstdDecompressor final : public Decompressor {
 public:
  ZstdDecompressor() : dctx_(ZSTD_createDCtx()) {}
  ~ZstdDecompressor() override { ZSTD_freeDCtx(dctx_); }
  StatusOr<size_t> Decompress(ByteSpan src, std::span<uint8_t> dst) override {
    if (dctx_ == nullptr) return Status::IoError("zstd init failed");
    size_t n = ZSTD_decompressDCtx(dctx_, dst.data(), dst.size(), src.data(),
                                   src.size());
    if (ZSTD_isError(n)) {
      return Status::Corruption(std::string("zstd block: ") +
                                ZSTD_getErrorName(n));
    }
    return n;
  }

 private:
  ZSTD_DCtx* dctx_;
};

}  // namespace

std::unique_ptr<Decompressor> NewZstdDecompressor() {
  return std::make_unique<ZstdDecompressor>();
}

}  // namespace squashlab
