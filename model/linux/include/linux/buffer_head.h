/* SPDX-License-Identifier: GPL-2.0-only */
/* This file implements <linux/buffer_head.h> for fs/squashfs of 6.1, which
 * includes it without using buffer heads: see squashlab/fs.h. */
#include <squashlab/fs.h>
