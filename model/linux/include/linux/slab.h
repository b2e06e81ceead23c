/* SPDX-License-Identifier: GPL-2.0-only */
/* This file implements <linux/slab.h> for fs/squashfs: see squashlab/slab.h. */
#include <squashlab/slab.h>
