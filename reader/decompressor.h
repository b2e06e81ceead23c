// SPDX-License-Identifier: GPL-2.0-only
// This file implements the Decompressor interface behind which each SquashFS
// codec lives (one file each), and the parsing of the compressor options that
// mksquashfs may store after the superblock.
#ifndef SQUASHLAB_READER_DECOMPRESSOR_H_
#define SQUASHLAB_READER_DECOMPRESSOR_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "reader/le_decode.h"
#include "reader/status.h"
#include "reader/superblock.h"

namespace squashlab {

// One decompression stream. Thread-compatible: use one per thread.
class Decompressor {
 public:
  virtual ~Decompressor() = default;
  // Decompresses all of `src` into `dst`; returns the number of bytes written.
  // Output that would not fit in dst, or malformed input, is kCorruption.
  virtual StatusOr<size_t> Decompress(ByteSpan src, std::span<uint8_t> dst) = 0;
};

StatusOr<std::unique_ptr<Decompressor>> NewDecompressor(CompressorId id);

// Compressor options as stored in the image (all optional). Only facts that
// matter to a reader, plus a text description for `squashlab info`.
struct CompressorOptions {
  bool present = false;
  std::string description;  // e.g. "level=9 window=15 strategies=default"
};

// REQUIRES: `bytes` is the decoded options metadata block.
StatusOr<CompressorOptions> ParseCompressorOptions(CompressorId id,
                                                   ByteSpan bytes);

// Per-codec factories (decompressor_<codec>.cc).
std::unique_ptr<Decompressor> NewGzipDecompressor();
std::unique_ptr<Decompressor> NewXzDecompressor(bool legacy_lzma);
std::unique_ptr<Decompressor> NewLzoDecompressor();
std::unique_ptr<Decompressor> NewLz4Decompressor();
std::unique_ptr<Decompressor> NewZstdDecompressor();

}  // namespace squashlab

#endif  // SQUASHLAB_READER_DECOMPRESSOR_H_
