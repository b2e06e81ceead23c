// SPDX-License-Identifier: GPL-2.0-only
// This file implements the `single` decompressor strategy
// (decompressor_single.c): one stream, serialised by a mutex.
#include "model/kernel/kernel.h"
#include "model/kernel/mutex.h"
#include "model/variants/decompressor.h"

namespace squashlab {
namespace {

struct squashfs_stream {
  CodecStream* stream = nullptr;
  mutex mtx;
};

void single_create(squashfs_sb_info* msblk) {
  auto* s = Kernel::Current().New<squashfs_stream>();
  s->stream = squashfs_stream_init(msblk);
  mutex_init(&s->mtx);
  msblk->stream = s;
}

int single_decompress(squashfs_sb_info* msblk, buffer_head** bh, int b,
                      int offset, int length, squashfs_page_actor* output) {
  auto* s = static_cast<squashfs_stream*>(msblk->stream);
  mutex_lock(&s->mtx);
  int res = squashfs_codec_uncompress(msblk, s->stream, bh, b, offset, length,
                                      output);
  mutex_unlock(&s->mtx);
  return res;
}

int single_max() { return 1; }

}  // namespace

const SquashfsDecompressorOps kDecompSingle = {
    "single", "one stream behind a mutex", single_create, single_decompress,
    single_max};

}  // namespace squashlab
