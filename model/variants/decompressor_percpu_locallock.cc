// SPDX-License-Identifier: GPL-2.0-only
// This file implements the `percpu-locallock` decompressor strategy: the RT
// fix of the 2018 RT thread (get_locked_ptr / put_locked_ptr on a local lock),
// so on PREEMPT_RT the decompression runs preemptible, serialised per CPU.
#include "model/kernel/kernel.h"
#include "model/kernel/preempt.h"
#include "model/variants/decompressor.h"

namespace squashlab {
namespace {

struct squashfs_stream {
  CodecStream* stream = nullptr;
};

// DEFINE_LOCAL_IRQ_LOCK(stream_lock) is a static in the kernel; one mount
// per run here, so it lives with the run's state.
struct LocallockState {
  percpu<squashfs_stream>* streams = nullptr;
  DEFINE_LOCAL_IRQ_LOCK(stream_lock);
};

void locallock_create(squashfs_sb_info* msblk) {
  Kernel& k = Kernel::Current();
  auto* st = k.New<LocallockState>();
  st->streams = alloc_percpu<squashfs_stream>();
  for (int cpu = 0; cpu < k.config().ncpus; cpu++)
    per_cpu_ptr(st->streams, cpu)->stream = squashfs_stream_init(msblk);
  msblk->stream = st;
}

int locallock_decompress(squashfs_sb_info* msblk, buffer_head** bh, int b,
                         int offset, int length, squashfs_page_actor* output) {
  auto* st = static_cast<LocallockState*>(msblk->stream);
  squashfs_stream* stream = get_locked_ptr(st->stream_lock, st->streams);
  int res = squashfs_codec_uncompress(msblk, stream->stream, bh, b, offset,
                                      length, output);
  put_locked_ptr(st->stream_lock, stream);
  return res;
}

int locallock_max() { return Kernel::Current().config().ncpus; }

}  // namespace

const SquashfsDecompressorOps kDecompPercpuLocallock = {
    "percpu-locallock", "a stream per CPU under an RT local lock (preemptible)",
    locallock_create, locallock_decompress, locallock_max};

}  // namespace squashlab
