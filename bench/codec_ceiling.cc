// SPDX-License-Identifier: GPL-2.0-only
// This file implements codec_ceiling: the single-thread decode rate of one
// file of a SquashFS image, block by block, through the reader's DataReader.
// It is the ceiling the parallel `squashlab cat` is measured against (this
// rate times the number of cores). Prints one JSON object on stdout
// (nlohmann-json).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "reader/decompressor.h"
#include "reader/image.h"

namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

int Fail(const std::string& what, const squashlab::Status& s) {
  std::fprintf(stderr, "codec_ceiling: %s: %s\n", what.c_str(),
               s.ToString().c_str());
  return 3;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: codec_ceiling IMG PATH [PASSES]\n");
    return 2;
  }
  const int passes = argc > 3 ? std::atoi(argv[3]) : 2;
  auto image = squashlab::Image::Open(argv[1]);
  if (!image.ok()) return Fail(argv[1], image.status());
  squashlab::Image& img = **image;
  auto inode = img.Lookup(argv[2]);
  if (!inode.ok()) return Fail(argv[2], inode.status());
  auto layout = img.Layout(*inode);
  if (!layout.ok()) return Fail(argv[2], layout.status());
  auto ctx = img.data().NewContext();
  if (!ctx.ok()) return Fail("context", ctx.status());
  std::vector<uint8_t> out(img.superblock().block_size);

  // Every chunk through ReadChunk (codec, sparse memset, uncompressed copy,
  // fragment tail): what cat has to do at the least, single-threaded.
  double best_all = 1e30;
  for (int p = 0; p < passes; ++p) {  // the first pass also warms the mapping
    auto t0 = Clock::now();
    for (uint64_t i = 0; i < layout->chunk_count(); ++i) {
      auto s = img.data().ReadChunk(*layout, i, ctx->get(), out.data());
      if (!s.ok()) return Fail("chunk " + std::to_string(i), s);
    }
    best_all = std::min(best_all, Seconds(t0, Clock::now()));
  }
  // The codec alone, over the compressed full blocks only.
  auto dec = squashlab::NewDecompressor(img.superblock().compressor);
  if (!dec.ok()) return Fail("decompressor", dec.status());
  uint64_t codec_in = 0, codec_out = 0;
  double best_codec = 1e30;
  for (int p = 0; p < passes; ++p) {
    codec_in = codec_out = 0;
    auto t0 = Clock::now();
    for (const auto& b : layout->blocks) {
      if (b.stored_size == 0 || !b.compressed) continue;
      auto src = img.bytes().Slice(b.start, b.stored_size);
      if (!src.ok()) return Fail("slice", src.status());
      auto n = (*dec)->Decompress(*src, std::span<uint8_t>(out));
      if (!n.ok()) return Fail("decompress", n.status());
      codec_in += b.stored_size;
      codec_out += *n;
    }
    best_codec = std::min(best_codec, Seconds(t0, Clock::now()));
  }
  const unsigned cores = std::thread::hardware_concurrency();
  const double mb = 1e6;
  const double all_rate = layout->file_size / best_all / mb;
  const double codec_rate =
      best_codec > 0 && codec_out ? codec_out / best_codec / mb : 0;
  auto round_to = [](double v, double scale) {
    return std::round(v * scale) / scale;
  };
  const nlohmann::ordered_json j = {
      {"file_bytes", layout->file_size},
      {"chunks", layout->chunk_count()},
      {"seconds", round_to(best_all, 1e4)},
      {"single_thread_MBps", round_to(all_rate, 10)},
      {"codec_blocks", layout->blocks.size()},
      {"codec_in_bytes", codec_in},
      {"codec_out_bytes", codec_out},
      {"codec_seconds", round_to(best_codec, 1e4)},
      {"codec_MBps", round_to(codec_rate, 10)},
      {"cores", cores},
      {"ceiling_MBps", round_to(all_rate * cores, 10)}};
  std::printf("%s\n", j.dump().c_str());
  return 0;
}
