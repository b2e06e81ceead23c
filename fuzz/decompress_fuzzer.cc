// SPDX-License-Identifier: GPL-2.0-only
// This file implements the fuzz target of one decompressor wrapper; the BUILD
// file compiles it once per codec with SQUASHLAB_FUZZ_CODEC set to the
// compressor id. Input: output capacity (4 bytes, capped at 1 MiB + 64) then
// the compressed bytes. The same stream decodes the input twice (streams are
// reused across blocks, so state must not leak); both runs must agree and
// never write past the capacity. The input is also parsed as a compressor
// options block.
#include <cstdint>
#include <cstring>
#include <vector>

#include "fuzz/fuzz_input.h"
#include "reader/decompressor.h"

#ifndef SQUASHLAB_FUZZ_CODEC
#error "SQUASHLAB_FUZZ_CODEC must be the compressor id (1..6)"
#endif

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace squashlab;
  constexpr auto kCodec = static_cast<CompressorId>(SQUASHLAB_FUZZ_CODEC);
  fuzz::FuzzInput in(data, size);
  const size_t capacity = in.U32() % ((1u << 20) + 65);
  const std::vector<uint8_t> src = in.Rest();
  (void)ParseCompressorOptions(kCodec, src);
  auto codec = NewDecompressor(kCodec);
  FUZZ_CHECK(codec.ok());
  // Guard bytes after the capacity catch writes past it even without ASan.
  // The buffers are reused: allocating up to 2 MiB per input would dominate.
  constexpr size_t kGuard = 64;
  static std::vector<uint8_t> first, second;
  first.resize(capacity + kGuard);
  second.resize(capacity + kGuard);
  std::memset(first.data() + capacity, 0xA5, kGuard);
  std::memset(second.data() + capacity, 0x5A, kGuard);
  auto n1 =
      (*codec)->Decompress(src, std::span<uint8_t>(first.data(), capacity));
  auto n2 =
      (*codec)->Decompress(src, std::span<uint8_t>(second.data(), capacity));
  for (size_t i = capacity; i < capacity + kGuard; ++i) {
    FUZZ_CHECK(first[i] == 0xA5 && second[i] == 0x5A);
  }
  FUZZ_CHECK(n1.ok() == n2.ok());
  if (n1.ok()) {
    FUZZ_CHECK(*n1 <= capacity && *n1 == *n2);
    FUZZ_CHECK(std::memcmp(first.data(), second.data(), *n1) == 0);
  } else {
    FUZZ_CHECK(n1.status().code() == n2.status().code());
  }
  return 0;
}
