/* SPDX-License-Identifier: GPL-2.0-only */
/* This file implements <linux/zstd.h> for fs/squashfs: the package's own
 * (lib/zstd's interface), with zstd_decompress_stream wrapped to end in
 * sl_decompressed (squashlab/compress.h). */
#include_next <linux/zstd.h>
#include <squashlab/compress.h>
#if SL_WRAP_DECOMPRESSORS && !defined(SQUASHLAB_LINUX_ZSTD_H_)
#define SQUASHLAB_LINUX_ZSTD_H_
static inline size_t sl_zstd_decompress_stream(zstd_dstream *dstream,
                                               zstd_out_buffer *output,
                                               zstd_in_buffer *input) {
  size_t before = output->pos;
  size_t ret = zstd_decompress_stream(dstream, output, input);
  sl_decompressed(output->pos - before, "zstd");
  return ret;
}
#define zstd_decompress_stream(d, out, in) sl_zstd_decompress_stream(d, out, in)
#endif
