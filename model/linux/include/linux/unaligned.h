/* SPDX-License-Identifier: GPL-2.0-only */
/* This file implements <linux/unaligned.h> for the lib/ decompressors: see
 * squashlab/unaligned.h. */
#include <squashlab/unaligned.h>
