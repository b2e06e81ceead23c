// SPDX-License-Identifier: GPL-2.0-only
// This file implements the decompressor layer of the variants: the codec
// call (the kernel's zlib_uncompress & co: gather the compressed bytes from
// the buffer heads, put_bh each, decode with the reader's codec, write the
// output through the page actor) and SquashfsDecompressorOps, the one ops
// table behind which each threading strategy lives, one file each as in
// fs/squashfs/decompressor_{single,multi,multi_percpu}.c.
#ifndef SQUASHLAB_MODEL_VARIANTS_DECOMPRESSOR_H_
#define SQUASHLAB_MODEL_VARIANTS_DECOMPRESSOR_H_

#include <memory>
#include <string>
#include <vector>

#include "model/variants/squashfs.h"
#include "reader/decompressor.h"

namespace squashlab {

struct buffer_head;
struct squashfs_page_actor;

// One decompression stream (the codec state a strategy hands out).
struct CodecStream {
  std::unique_ptr<Decompressor> codec;
  std::vector<uint8_t> in;
  std::vector<uint8_t> out;
};

// A new stream for msblk's codec (plain C++ memory: lives for the run).
CodecStream* squashfs_stream_init(squashfs_sb_info* msblk);

// The codec's decompress hook: returns the decoded length or -EIO. Consumes
// (put_bh) every one of the b buffer heads. Named after the kernel function
// of the codec ("zlib_uncompress") in reports.
int squashfs_codec_uncompress(squashfs_sb_info* msblk, CodecStream* stream,
                              buffer_head** bh, int b, int offset, int length,
                              squashfs_page_actor* output);

struct SquashfsDecompressorOps {
  const char* name;
  const char* summary;
  // Creates the strategy's state in msblk->stream (run-owned memory).
  void (*create)(squashfs_sb_info* msblk);
  int (*decompress)(squashfs_sb_info* msblk, buffer_head** bh, int b,
                    int offset, int length, squashfs_page_actor* output);
  int (*max_decompressors)();
};

inline int squashfs_decompress(squashfs_sb_info* msblk, buffer_head** bh, int b,
                               int offset, int length,
                               squashfs_page_actor* output) {
  return msblk->thread_ops->decompress(msblk, bh, b, offset, length, output);
}

extern const SquashfsDecompressorOps kDecompSingle;
extern const SquashfsDecompressorOps kDecompMulti;
extern const SquashfsDecompressorOps kDecompPercpu;
extern const SquashfsDecompressorOps kDecompPercpuLocallock;

// All strategies, in table order; nullptr when `name` is unknown.
const std::vector<const SquashfsDecompressorOps*>& AllDecompressors();
const SquashfsDecompressorOps* FindDecompressor(const std::string& name);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_VARIANTS_DECOMPRESSOR_H_
