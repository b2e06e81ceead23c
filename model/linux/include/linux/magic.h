/* SPDX-License-Identifier: GPL-2.0-only */
/* This file implements <linux/magic.h> for fs/squashfs: see squashlab/fs.h. */
#include <squashlab/fs.h>
#define SQUASHFS_MAGIC 0x73717368
