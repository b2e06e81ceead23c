// SPDX-License-Identifier: GPL-2.0-only
// This file implements the tests of the decompressor APIs' memory: a stream
// initialised again without its end call (as the kernel's wrappers do on an
// error path, where the kernel's decoders live in a preallocated workspace)
// frees the state it held, a garbage pointer in an uninitialised workspace
// is never freed, and CodecHeap frees what is left when it goes.
#include "model/linux/bridge/codec_heap.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "model/kernel/testing/contract.h"
#include "model/linux/bridge/run_state.h"

// The header layer's entry points (squashlab/compress.h), declared over
// opaque memory: the test needs their effect on the heap, not the types.
extern "C" {
int zlib_inflateInit2(void* strm, int window_bits);
int zlib_inflateEnd(void* strm);
void* zstd_init_dstream(size_t max_window_size, void* workspace,
                        size_t workspace_size);
size_t zstd_dstream_workspace_bound(size_t max_window_size);
void* xz_dec_init(int mode, uint32_t dict_max);
void xz_dec_end(void* s);
}

namespace squashlab::linux_bridge {
namespace {

// Runs `body` as a task of a run that has a bridge state.
void InRun(std::function<void(CodecHeap&)> body) {
  Report r = testing::RunTask([body] { body(Run().codec_heap()); }, {},
                              [](Kernel& k) { Attach(k); });
  EXPECT_SILENT(r);
}

// A z_stream as the kernel lays it out (12 words), uninitialised.
struct alignas(8) ZStreamMemory {
  unsigned char bytes[12 * 8];
  ZStreamMemory() { std::memset(bytes, 0x5a, sizeof bytes); }
};

TEST(CodecHeap, ZlibInitAgainWithoutEndFreesThePreviousState) {
  InRun([](CodecHeap& heap) {
    ZStreamMemory z;
    ASSERT_EQ(zlib_inflateInit2(&z, 15), 0);  // garbage state: not freed
    size_t one_stream = heap.live();
    ASSERT_GT(one_stream, 0u);
    for (int i = 0; i < 50; i++) ASSERT_EQ(zlib_inflateInit2(&z, 15), 0);
    EXPECT_EQ(heap.live(), one_stream);
    EXPECT_EQ(zlib_inflateEnd(&z), 0);
    EXPECT_EQ(heap.live(), 0u);
  });
}

TEST(CodecHeap, ZstdInitPerBlockKeepsOneStream) {
  InRun([](CodecHeap& heap) {
    size_t size = zstd_dstream_workspace_bound(8192);
    std::vector<unsigned char> workspace(size, 0x5a);
    ASSERT_NE(zstd_init_dstream(8192, workspace.data(), size), nullptr);
    size_t one_stream = heap.live();
    ASSERT_GT(one_stream, 0u);
    for (int i = 0; i < 50; i++)
      ASSERT_NE(zstd_init_dstream(8192, workspace.data(), size), nullptr);
    EXPECT_EQ(heap.live(), one_stream);
  });
}

TEST(CodecHeap, XzDecoderIsFreedByItsEnd) {
  InRun([](CodecHeap& heap) {
    void* x = xz_dec_init(1, 1 << 20);
    ASSERT_NE(x, nullptr);
    EXPECT_GT(heap.live(), 0u);
    xz_dec_end(x);
    EXPECT_EQ(heap.live(), 0u);
  });
}

TEST(CodecHeap, FreesOnlyItsOwnAndTheRestAtTheEnd) {
  CodecHeap heap;
  int not_ours = 0;
  void* a = heap.Alloc(100);
  void* b = CodecHeap::CallocHook(&heap, 10, 10);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(static_cast<unsigned char*>(b)[99], 0);
  EXPECT_TRUE(heap.Owns(a));
  EXPECT_FALSE(heap.Owns(&not_ours));
  heap.Free(&not_ours);  // ignored, not handed to free()
  EXPECT_EQ(heap.live(), 2u);
  heap.Free(a);
  EXPECT_FALSE(heap.Owns(a));
  EXPECT_EQ(heap.live(), 1u);
  EXPECT_EQ(CodecHeap::ArrayHook(&heap, SIZE_MAX, 2), nullptr);  // overflow
  // b is left for the destructor (a leak here fails under ASan).
}

}  // namespace
}  // namespace squashlab::linux_bridge
