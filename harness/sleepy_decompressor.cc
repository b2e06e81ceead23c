// SPDX-License-Identifier: GPL-2.0-only
// This file implements the per-CPU strategy with a mutex inside its
// per-CPU section.
#include "harness/sleepy_decompressor.h"

#include "model/kernel/kernel.h"
#include "model/kernel/mutex.h"
#include "model/kernel/preempt.h"
#include "model/variants/decompressor.h"

namespace squashlab {
namespace {

struct SleepyState {
  percpu<CodecStream*>* streams = nullptr;
  mutex mtx;
};

void sleepy_create(squashfs_sb_info* msblk) {
  auto* st = Kernel::Current().New<SleepyState>();
  st->streams = alloc_percpu<CodecStream*>();
  for (auto& s : st->streams->slots) s = squashfs_stream_init(msblk);
  mutex_init(&st->mtx);
  msblk->stream = st;
}

int sleepy_decompress(squashfs_sb_info* msblk, buffer_head** bh, int b,
                      int offset, int length, squashfs_page_actor* output) {
  auto* st = static_cast<SleepyState*>(msblk->stream);
  CodecStream** s = get_cpu_ptr(st->streams);
  mutex_lock(&st->mtx);  // sleeps with preemption off: the misuse
  int res = squashfs_codec_uncompress(msblk, *s, bh, b, offset, length, output);
  mutex_unlock(&st->mtx);
  put_cpu_ptr(s);
  return res;
}

int sleepy_max() { return 1; }

const SquashfsDecompressorOps kSleepy = {"percpu-sleepy", "", sleepy_create,
                                         sleepy_decompress, sleepy_max};

}  // namespace

const SquashfsDecompressorOps* SleepyPercpuDecompressor() { return &kSleepy; }

}  // namespace squashlab
