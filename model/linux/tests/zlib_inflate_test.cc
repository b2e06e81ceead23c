// SPDX-License-Identifier: GPL-2.0-only
// This file implements the tests of the header layer's zlib_inflate against
// the kernel's semantics that fs/squashfs's zlib_uncompress relies on: a
// block whose output fills the last page before inflate has read the
// stream's trailer is finished by a call with next_out NULL and no room.
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdint>
#include <vector>

#include "model/kernel/testing/contract.h"
#include "model/linux/bridge/run_state.h"

namespace squashlab::linux_bridge {
namespace {

// include/linux/zlib.h's z_stream, field by field.
struct KernelZStream {
  const unsigned char* next_in;
  unsigned long avail_in;
  unsigned long total_in;
  unsigned char* next_out;
  unsigned long avail_out;
  unsigned long total_out;
  char* msg;
  void* state;
  void* workspace;
  int data_type;
  unsigned long adler;
  unsigned long reserved;
};

extern "C" {
int zlib_inflateInit2(KernelZStream* strm, int window_bits);
int zlib_inflate(KernelZStream* strm, int flush);
int zlib_inflateEnd(KernelZStream* strm);
}

constexpr int kZOk = 0, kZStreamEnd = 1, kZSyncFlush = 2;

std::vector<unsigned char> Deflated(const std::vector<unsigned char>& in) {
  uLongf n = compressBound(in.size());
  std::vector<unsigned char> out(n);
  EXPECT_EQ(compress2(out.data(), &n, in.data(), in.size(), 9), Z_OK);
  out.resize(n);
  return out;
}

// A whole 128 KiB block, its input split as a bio's segments can split it:
// the last segment holds only the Adler-32 trailer. The output fills the
// actor's 32 pages with the first segment, so the second call is made as
// zlib_uncompress makes it once squashfs_next_page has returned NULL.
TEST(ZlibInflate, TrailerAfterTheLastPageEndsWithNullOutput) {
  std::vector<unsigned char> block(128 * 1024);
  for (size_t i = 0; i < block.size(); i++)
    block[i] = static_cast<unsigned char>((i * 2654435761u) >> 13);
  const std::vector<unsigned char> z = Deflated(block);
  ASSERT_GT(z.size(), 4u);
  Report r = testing::RunTask(
      [&] {
        std::vector<unsigned char> out(block.size());
        KernelZStream s{};
        ASSERT_EQ(zlib_inflateInit2(&s, 15), kZOk);
        s.next_in = z.data();
        s.avail_in = z.size() - 4;
        s.next_out = out.data();
        s.avail_out = out.size();
        ASSERT_EQ(zlib_inflate(&s, kZSyncFlush), kZOk);
        ASSERT_EQ(s.avail_out, 0u);
        ASSERT_EQ(s.avail_in, 0u);
        s.next_in = z.data() + z.size() - 4;
        s.avail_in = 4;
        s.next_out = nullptr;  // squashfs_next_page: no page left
        EXPECT_EQ(zlib_inflate(&s, kZSyncFlush), kZStreamEnd);
        EXPECT_EQ(s.next_out, nullptr);
        EXPECT_EQ(s.total_out, block.size());
        EXPECT_EQ(out, block);
        EXPECT_EQ(zlib_inflateEnd(&s), kZOk);
      },
      {}, [](Kernel& k) { Attach(k); });
  EXPECT_SILENT(r);
}

}  // namespace
}  // namespace squashlab::linux_bridge
