// SPDX-License-Identifier: GPL-2.0-only
// This file implements the `multi` decompressor strategy
// (decompressor_multi.c): a pool of up to 2 x ncpus streams; a reader that
// finds none free and the pool full sleeps until one is put back.
#include <vector>

#include "model/kernel/kernel.h"
#include "model/kernel/mutex.h"
#include "model/kernel/wait_queue.h"
#include "model/variants/decompressor.h"

namespace squashlab {
namespace {

struct squashfs_stream {
  mutex mtx;
  std::vector<CodecStream*> strm_list;
  int avail_decomp = 0;
  wait_queue_head_t wait;
};

int multi_max() { return 2 * Kernel::Current().config().ncpus; }

void multi_create(squashfs_sb_info* msblk) {
  auto* s = Kernel::Current().New<squashfs_stream>();
  mutex_init(&s->mtx);
  s->strm_list.push_back(
      squashfs_stream_init(msblk));  // the first one up front
  s->avail_decomp = 1;
  msblk->stream = s;
}

CodecStream* get_decomp_stream(squashfs_sb_info* msblk, squashfs_stream* s) {
  for (;;) {
    mutex_lock(&s->mtx);
    if (!s->strm_list.empty()) {
      CodecStream* d = s->strm_list.back();
      s->strm_list.pop_back();
      mutex_unlock(&s->mtx);
      return d;
    }
    if (s->avail_decomp < multi_max()) {
      CodecStream* d = squashfs_stream_init(msblk);
      s->avail_decomp++;
      mutex_unlock(&s->mtx);
      return d;
    }
    mutex_unlock(&s->mtx);
    wait_event(s->wait, [s] { return !s->strm_list.empty(); });
  }
}

void put_decomp_stream(CodecStream* d, squashfs_stream* s) {
  mutex_lock(&s->mtx);
  s->strm_list.push_back(d);
  mutex_unlock(&s->mtx);
  wake_up(&s->wait);
}

int multi_decompress(squashfs_sb_info* msblk, buffer_head** bh, int b,
                     int offset, int length, squashfs_page_actor* output) {
  auto* s = static_cast<squashfs_stream*>(msblk->stream);
  CodecStream* d = get_decomp_stream(msblk, s);
  int res = squashfs_codec_uncompress(msblk, d, bh, b, offset, length, output);
  put_decomp_stream(d, s);
  return res;
}

}  // namespace

const SquashfsDecompressorOps kDecompMulti = {
    "multi", "a pool of streams, waiters sleep", multi_create, multi_decompress,
    multi_max};

}  // namespace squashlab
