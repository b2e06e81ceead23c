// SPDX-License-Identifier: GPL-2.0-only
// This file implements the `percpu` decompressor strategy
// (decompressor_multi_percpu.c): one stream per CPU, taken with
// get_cpu_ptr, so preemption is off for the whole decompression.
#include "model/kernel/kernel.h"
#include "model/kernel/preempt.h"
#include "model/variants/decompressor.h"

namespace squashlab {
namespace {

struct squashfs_stream {
  CodecStream* stream = nullptr;
};

struct PercpuState {
  percpu<squashfs_stream>* streams = nullptr;
};

void percpu_create(squashfs_sb_info* msblk) {
  Kernel& k = Kernel::Current();
  auto* st = k.New<PercpuState>();
  st->streams = alloc_percpu<squashfs_stream>();
  for (int cpu = 0; cpu < k.config().ncpus; cpu++)
    per_cpu_ptr(st->streams, cpu)->stream = squashfs_stream_init(msblk);
  msblk->stream = st;
}

int percpu_decompress(squashfs_sb_info* msblk, buffer_head** bh, int b,
                      int offset, int length, squashfs_page_actor* output) {
  auto* st = static_cast<PercpuState*>(msblk->stream);
  squashfs_stream* stream = get_cpu_ptr(st->streams);
  int res = squashfs_codec_uncompress(msblk, stream->stream, bh, b, offset,
                                      length, output);
  put_cpu_ptr(stream);
  return res;
}

int percpu_max() { return Kernel::Current().config().ncpus; }

}  // namespace

const SquashfsDecompressorOps kDecompPercpu = {
    "percpu", "a stream per CPU under get_cpu_ptr (preemption off)",
    percpu_create, percpu_decompress, percpu_max};

}  // namespace squashlab
