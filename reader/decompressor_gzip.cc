// SPDX-License-Identifier: GPL-2.0-only
// This file implements the gzip (zlib stream) decompressor, reusing one
// inflate state across blocks.
#include <zlib.h>

#include "reader/decompressor.h"

namespace squashlab {
namespace {

class GzipDecompressor final : public Decompressor {
 public:
  GzipDecompressor() { ok_ = inflateInit(&zs_) == Z_OK; }
  ~GzipDecompressor() override {
    if (ok_) inflateEnd(&zs_);
  }
  StatusOr<size_t> Decompress(ByteSpan src, std::span<uint8_t> dst) override {
    if (!ok_ || inflateReset(&zs_) != Z_OK)
      return Status::IoError("zlib init failed");
    zs_.next_in = const_cast<Bytef*>(src.data());
    zs_.avail_in = static_cast<uInt>(src.size());
    zs_.next_out = dst.data();
    zs_.avail_out = static_cast<uInt>(dst.size());
    int rc = inflate(&zs_, Z_FINISH);
    if (rc != Z_STREAM_END) {
      return Status::Corruption(rc == Z_BUF_ERROR && zs_.avail_out == 0
                                    ? "gzip block decompresses past its limit"
                                    : "gzip block is corrupt");
    }
    return static_cast<size_t>(dst.size() - zs_.avail_out);
  }

 private:
  z_stream zs_{};
  bool ok_ = false;
};

}  // namespace

std::unique_ptr<Decompressor> NewGzipDecompressor() {
  return std::make_unique<GzipDecompressor>();
}

}  // namespace squashlab
