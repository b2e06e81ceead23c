// SPDX-License-Identifier: GPL-2.0-only
// This file checks CodecMemo: only the same codec, the same input bytes and
// the same output room get the remembered output.
#include "model/variants/codec_memo.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace squashlab {
namespace {

TEST(CodecMemo, AnswersOnlyTheSameBlock) {
  std::vector<uint8_t> in(3000), out(5000);
  for (size_t i = 0; i < in.size(); i++) in[i] = static_cast<uint8_t>(i * 7);
  for (size_t i = 0; i < out.size(); i++) out[i] = static_cast<uint8_t>(i);
  std::vector<uint8_t> room(8192, 0xee);
  EXPECT_EQ(CodecMemo::Find(CompressorId::kGzip, in, room), -1);
  CodecMemo::Add(CompressorId::kGzip, in, room.size(), out);
  ASSERT_EQ(CodecMemo::Find(CompressorId::kGzip, in, room), 5000);
  EXPECT_TRUE(std::equal(out.begin(), out.end(), room.begin()));
  EXPECT_EQ(room[5000], 0xee);  // nothing past the output is written
  // Another codec, another room, one flipped bit, a shorter input: misses.
  EXPECT_EQ(CodecMemo::Find(CompressorId::kXz, in, room), -1);
  std::vector<uint8_t> small(4096);
  EXPECT_EQ(CodecMemo::Find(CompressorId::kGzip, in, small), -1);
  std::vector<uint8_t> flipped = in;
  flipped[1234] ^= 0x10;
  EXPECT_EQ(CodecMemo::Find(CompressorId::kGzip, flipped, room), -1);
  std::vector<uint8_t> shorter(in.begin(), in.end() - 1);
  EXPECT_EQ(CodecMemo::Find(CompressorId::kGzip, shorter, room), -1);
}

}  // namespace
}  // namespace squashlab
