/* SPDX-License-Identifier: GPL-2.0-only */
/* This file implements <linux/lzo.h> for fs/squashfs: the package's own
 * (lib/lzo's interface), with lzo1x_decompress_safe wrapped to end in
 * sl_decompressed (squashlab/compress.h). */
#include_next <linux/lzo.h>
#include <squashlab/compress.h>
#if SL_WRAP_DECOMPRESSORS && !defined(SQUASHLAB_LINUX_LZO_H_)
#define SQUASHLAB_LINUX_LZO_H_
static inline int sl_lzo1x_decompress_safe(const unsigned char *src,
                                           size_t src_len, unsigned char *dst,
                                           size_t *dst_len) {
  int ret = lzo1x_decompress_safe(src, src_len, dst, dst_len);
  sl_decompressed(*dst_len, "lzo");
  return ret;
}
#define lzo1x_decompress_safe(src, src_len, dst, dst_len) \
  sl_lzo1x_decompress_safe(src, src_len, dst, dst_len)
#endif
