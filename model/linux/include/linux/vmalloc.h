/* SPDX-License-Identifier: GPL-2.0-only */
/* This file implements <linux/vmalloc.h> for fs/squashfs: see squashlab/slab.h.
 */
#include <squashlab/slab.h>
