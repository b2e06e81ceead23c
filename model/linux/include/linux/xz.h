/* SPDX-License-Identifier: GPL-2.0-only */
/* This file implements <linux/xz.h> for fs/squashfs: the package's own
 * (lib/xz's interface), with xz_dec_run wrapped to end in sl_decompressed
 * (squashlab/compress.h). */
#include_next <linux/xz.h>
#include <squashlab/compress.h>
#if SL_WRAP_DECOMPRESSORS && !defined(SQUASHLAB_LINUX_XZ_H_)
#define SQUASHLAB_LINUX_XZ_H_
static inline enum xz_ret sl_xz_dec_run(struct xz_dec *s, struct xz_buf *b) {
  size_t before = b->out_pos;
  enum xz_ret ret = xz_dec_run(s, b);
  sl_decompressed(b->out_pos - before, "xz");
  return ret;
}
#define xz_dec_run(s, b) sl_xz_dec_run(s, b)
#endif
