// SPDX-License-Identifier: GPL-2.0-only
// This file implements CodecMemo: the decoded bytes of recently decoded
// blocks, shared by every run of the process. The variants decode real
// image blocks so that every read can be checked against the oracle; a
// benchmark reads the same blocks in many cells (one per variant, strategy
// and dd bs), and decoding them again is most of its CPU time. A lookup
// compares the whole input, so only an identical block (same codec, same
// bytes, same output room) is answered from the memo; a corrupted block
// (a fault plan's flip) is decoded for real. Virtual time is charged by
// the caller as before: the memo changes how fast a run goes, never what
// it computes.
#ifndef SQUASHLAB_MODEL_VARIANTS_CODEC_MEMO_H_
#define SQUASHLAB_MODEL_VARIANTS_CODEC_MEMO_H_

#include <cstddef>
#include <cstdint>
#include <span>

#include "reader/le_decode.h"
#include "reader/superblock.h"

namespace squashlab {

class CodecMemo {
 public:
  // Copies the decoded bytes of `in` into `out` and returns their count, or
  // returns -1 when the block is not in the memo. Thread-safe.
  static long Find(CompressorId codec, ByteSpan in, std::span<uint8_t> out);
  // Remembers that `in` decodes to `out` (a successful decode into room of
  // `room` bytes). Bounded: past kMaxBytes of memo nothing more is kept.
  static void Add(CompressorId codec, ByteSpan in, size_t room,
                  std::span<const uint8_t> out);

  static constexpr size_t kMaxBytes = size_t{192} << 20;
};

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_VARIANTS_CODEC_MEMO_H_
