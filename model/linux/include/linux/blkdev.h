/* SPDX-License-Identifier: GPL-2.0-only */
/* This file implements <linux/blkdev.h> for fs/squashfs: see squashlab/bio.h.
 */
#include <squashlab/bio.h>
