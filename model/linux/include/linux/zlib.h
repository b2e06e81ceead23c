/* SPDX-License-Identifier: GPL-2.0-only */
/* This file implements <linux/zlib.h> for fs/squashfs: the package's own
 * (lib/zlib_inflate's interface), with zlib_inflate wrapped to end in
 * sl_decompressed (squashlab/compress.h). */
#include_next <linux/zlib.h>
#include <squashlab/compress.h>
#if SL_WRAP_DECOMPRESSORS && !defined(SQUASHLAB_LINUX_ZLIB_H_)
#define SQUASHLAB_LINUX_ZLIB_H_
static inline int sl_zlib_inflate(z_streamp strm, int flush) {
  uLong before = strm->total_out;
  int ret = zlib_inflate(strm, flush);
  sl_decompressed(strm->total_out - before, "gzip");
  return ret;
}
#define zlib_inflate(strm, flush) sl_zlib_inflate(strm, flush)
#endif
