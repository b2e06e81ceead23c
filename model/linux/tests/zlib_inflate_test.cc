// SPDX-License-Identifier: GPL-2.0-only
// This file implements the tests of the kernel's own lib/zlib_inflate
// (6.12's, compiled from the package as the modules link it) through the
// header layer's interface: the semantics fs/squashfs's zlib_uncompress
// relies on (a block whose output fills the last page before inflate has
// read the stream's trailer is finished by a call with next_out NULL and no
// room), and KASAN inside the kernel's inflate (an overrun of the output
// buffer is reported in the kernel's function, which the system library,
// uninstrumented, could not be).
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdint>
#include <cstring>
#include <string>
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
int zlib_inflate_workspacesize(void);
int zlib_inflateInit2(KernelZStream* strm, int window_bits);
int zlib_inflate(KernelZStream* strm, int flush);
int zlib_inflateEnd(KernelZStream* strm);
// The header layer's allocator (bridge/slab.cc): the model's checked heap.
void* vmalloc(unsigned long size);
void vfree(const void* p);
void* kmalloc(size_t size, unsigned int flags);
void kfree(const void* p);
}

constexpr int kZOk = 0, kZStreamEnd = 1, kZSyncFlush = 2;
constexpr unsigned kGfpKernel = 0xd0;  // the header layer's GFP_KERNEL

std::vector<unsigned char> Deflated(const std::vector<unsigned char>& in) {
  uLongf n = compressBound(in.size());
  std::vector<unsigned char> out(n);
  EXPECT_EQ(compress2(out.data(), &n, in.data(), in.size(), 9), Z_OK);
  out.resize(n);
  return out;
}

std::vector<unsigned char> Block(size_t n) {
  std::vector<unsigned char> block(n);
  for (size_t i = 0; i < block.size(); i++)
    block[i] = static_cast<unsigned char>((i * 2654435761u) >> 13);
  return block;
}

// A stream with its workspace on the model's heap, as zlib_init makes it.
void Init(KernelZStream* s) {
  *s = KernelZStream{};
  s->workspace = vmalloc(zlib_inflate_workspacesize());
  ASSERT_NE(s->workspace, nullptr);
  ASSERT_EQ(zlib_inflateInit2(s, 15), kZOk);
}

// A whole 128 KiB block, its input split as a bio's segments can split it:
// the last segment holds only the Adler-32 trailer. The output fills the
// actor's 32 pages with the first segment, so the second call is made as
// zlib_uncompress makes it once squashfs_next_page has returned NULL.
TEST(ZlibInflate, TrailerAfterTheLastPageEndsWithNullOutput) {
  const std::vector<unsigned char> block = Block(128 * 1024);
  const std::vector<unsigned char> z = Deflated(block);
  ASSERT_GT(z.size(), 4u);
  Report r = testing::RunTask(
      [&] {
        std::vector<unsigned char> out(block.size());
        KernelZStream s;
        Init(&s);
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
        vfree(s.workspace);
      },
      {}, [](Kernel& k) { Attach(k); });
  EXPECT_SILENT(r);
}

// Inflate told it has 1 KiB more room than its kmalloc'd output buffer
// (planted bug 18's mistake, larger): the kernel's inflate writes past the
// object in its fast loop, which runs while 258 bytes of room are left,
// and KASAN reports that write in lib/zlib_inflate's inflate_fast. The
// system library is not instrumented (its accesses could only be checked
// after the call, in the name of the header layer's zlib_inflate).
TEST(ZlibInflate, OverrunOfTheOutputIsKasanInTheKernelsInflate) {
  const std::vector<unsigned char> block = Block(8192);
  const std::vector<unsigned char> z = Deflated(block);
  Report r = testing::RunTask(
      [&] {
        auto* out = static_cast<unsigned char*>(kmalloc(4096, kGfpKernel));
        ASSERT_NE(out, nullptr);
        KernelZStream s;
        Init(&s);
        s.next_in = z.data();
        s.avail_in = z.size();
        s.next_out = out;
        s.avail_out = 4096 + 1024;
        zlib_inflate(&s, kZSyncFlush);
        zlib_inflateEnd(&s);
        vfree(s.workspace);
        kfree(out);
      },
      {}, [](Kernel& k) { Attach(k); });
  EXPECT_REPORT(r, ReportKind::kOutOfBounds);
  const std::string text = r.ToString();
  EXPECT_NE(text.find("BUG: KASAN: slab-out-of-bounds in inflate_fast"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("Write of size"), std::string::npos) << text;
}

}  // namespace
}  // namespace squashlab::linux_bridge
