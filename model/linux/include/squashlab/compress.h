/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * This file implements the model's side of the in-kernel decompressors.
 * The decompressors themselves (lib/zlib_inflate, lib/zstd, lib/xz,
 * lib/lz4, lib/lzo) and their headers (<linux/zlib.h>, ...) come from the
 * same linux-source package as the fs/squashfs they serve and are compiled
 * with it; <linux/zlib.h>, <linux/zstd.h>, <linux/xz.h> and <linux/lzo.h>
 * of this layer include the package's and wrap its decoding call so that
 * each call from fs/squashfs ends with sl_decompressed (its output charged
 * to the run, a scheduling point). crc32_le, which lib/xz uses, is
 * lib/crc32.c's, done by the bridge.
 */
#ifndef SQUASHLAB_LINUX_COMPRESS_H_
#define SQUASHLAB_LINUX_COMPRESS_H_

#include <squashlab/base.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The end of a decoding call that produced `bytes` of output: charged to
 * the run in simulate mode (`codec` names the cost), and a scheduling
 * point, as a preemptible kernel can be preempted between output pages. */
void sl_decompressed(unsigned long bytes, const char *codec);

/* include/linux/crc32.h: the CRC-32 (IEEE 802.3) of len bytes at p,
 * continuing from crc, without pre- or post-inversion. */
u32 crc32_le(u32 crc, const void *p, size_t len);

#ifdef __cplusplus
}
#endif

/* The package's lib/ files define the wrapped calls: they are compiled
 * with SQUASHLAB_KERNEL_LIB, which leaves the names alone. */
#ifdef SQUASHLAB_KERNEL_LIB
#define SL_WRAP_DECOMPRESSORS 0
#else
#define SL_WRAP_DECOMPRESSORS 1
#endif

#endif /* SQUASHLAB_LINUX_COMPRESS_H_ */
