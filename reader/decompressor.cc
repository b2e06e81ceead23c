// SPDX-License-Identifier: GPL-2.0-only
// This file implements the codec factory and the compressor-options parser.
#include "reader/decompressor.h"

namespace squashlab {

StatusOr<std::unique_ptr<Decompressor>> NewDecompressor(CompressorId id) {
  switch (id) {
    case CompressorId::kGzip:
      return NewGzipDecompressor();
    case CompressorId::kLzma:
      return NewXzDecompressor(/*legacy_lzma=*/true);
    case CompressorId::kXz:
      return NewXzDecompressor(/*legacy_lzma=*/false);
    case CompressorId::kLzo:
      return NewLzoDecompressor();
    case CompressorId::kLz4:
      return NewLz4Decompressor();
    case CompressorId::kZstd:
      return NewZstdDecompressor();
  }
  return Status::Unsupported("unknown compressor");
}

namespace {

std::string GzipStrategies(uint16_t s) {
  static constexpr const char* kNames[] = {"default", "filtered", "huffman",
                                           "rle", "fixed"};
  std::string out;
  for (int i = 0; i < 5; ++i) {
    if (s & (1u << i)) out += (out.empty() ? "" : "+") + std::string(kNames[i]);
  }
  return out.empty() ? "default" : out;
}

std::string XzFilters(uint32_t f) {
  static constexpr const char* kNames[] = {"x86", "powerpc",  "ia64",
                                           "arm", "armthumb", "sparc"};
  std::string out;
  for (int i = 0; i < 6; ++i) {
    if (f & (1u << i)) out += (out.empty() ? "" : "+") + std::string(kNames[i]);
  }
  return out.empty() ? "none" : out;
}

}  // namespace

StatusOr<CompressorOptions> ParseCompressorOptions(CompressorId id,
                                                   ByteSpan bytes) {
  LeCursor c(bytes);
  CompressorOptions o;
  o.present = true;
  switch (id) {
    case CompressorId::kGzip: {
      uint32_t level = c.U32();
      uint16_t window = c.U16();
      uint16_t strategies = c.U16();
      if (!c.ok()) break;
      if (level < 1 || level > 9 || window < 8 || window > 15)
        return Status::Corruption("gzip options out of range");
      o.description = "level=" + std::to_string(level) +
                      " window=" + std::to_string(window) +
                      " strategies=" + GzipStrategies(strategies);
      return o;
    }
    case CompressorId::kXz: {
      uint32_t dict = c.U32();
      uint32_t filters = c.U32();
      if (!c.ok()) break;
      o.description = "dictionary=" + std::to_string(dict) +
                      " filters=" + XzFilters(filters);
      return o;
    }
    case CompressorId::kLz4: {
      uint32_t version = c.U32();
      uint32_t flags = c.U32();
      if (!c.ok()) break;
      if (version != 1)
        return Status::Unsupported("lz4 format version " +
                                   std::to_string(version));
      o.description = "version=1" + std::string((flags & 1) ? " hc" : "");
      return o;
    }
    case CompressorId::kZstd: {
      uint32_t level = c.U32();
      if (!c.ok()) break;
      o.description = "level=" + std::to_string(level);
      return o;
    }
    case CompressorId::kLzo: {
      uint32_t algorithm = c.U32();
      uint32_t level = c.U32();
      if (!c.ok()) break;
      static constexpr const char* kAlgs[] = {
          "lzo1x_1", "lzo1x_1_11", "lzo1x_1_12", "lzo1x_1_15", "lzo1x_999"};
      if (algorithm > 4)
        return Status::Corruption("lzo algorithm out of range");
      o.description = std::string("algorithm=") + kAlgs[algorithm] +
                      " level=" + std::to_string(level);
      return o;
    }
    case CompressorId::kLzma:
      return Status::Corruption("lzma images carry no compressor options");
  }
  return Status::Corruption("compressor options block too short");
}

}  // namespace squashlab
