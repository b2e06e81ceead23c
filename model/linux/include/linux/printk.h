/* SPDX-License-Identifier: GPL-2.0-only */
/* This file implements <linux/printk.h> for the lib/ decompressors: see
 * squashlab/base.h. */
#include <squashlab/base.h>
