/* SPDX-License-Identifier: GPL-2.0-only */
/* This file implements <linux/crc32.h> for the lib/ decompressors: see
 * squashlab/compress.h. */
#include <squashlab/compress.h>
