// SPDX-License-Identifier: GPL-2.0-only
// This file implements the xz and legacy lzma decompressors with liblzma.
#include <lzma.h>

#include "reader/decompressor.h"

namespace squashlab {
namespace {

// Dictionaries in SquashFS are at most the 1 MiB block size; 256 MiB leaves
// room for any filter chain mksquashfs writes while bounding hostile input.
constexpr uint64_t kMemLimit = 256ull << 20;

class XzDecompressor final : public Decompressor {
 public:
  explicit XzDecompressor(bool legacy) : legacy_(legacy) {}
  ~XzDecompressor() override { lzma_end(&strm_); }

  StatusOr<size_t> Decompress(ByteSpan src, std::span<uint8_t> dst) override {
    lzma_ret rc = legacy_ ? lzma_alone_decoder(&strm_, kMemLimit)
                          : lzma_stream_decoder(&strm_, kMemLimit, 0);
    if (rc != LZMA_OK) return Status::IoError("liblzma init failed");
    strm_.next_in = src.data();
    strm_.avail_in = src.size();
    strm_.next_out = dst.data();
    strm_.avail_out = dst.size();
    rc = lzma_code(&strm_, LZMA_FINISH);
    if (rc != LZMA_STREAM_END) {
      return Status::Corruption(strm_.avail_out == 0
                                    ? "xz block decompresses past its limit"
                                    : "xz block is corrupt");
    }
    return dst.size() - strm_.avail_out;
  }

 private:
  bool legacy_;
  lzma_stream strm_ = LZMA_STREAM_INIT;
};

}  // namespace

std::unique_ptr<Decompressor> NewXzDecompressor(bool legacy_lzma) {
  return std::make_unique<XzDecompressor>(legacy_lzma);
}

}  // namespace squashlab
