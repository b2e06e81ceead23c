/* SPDX-License-Identifier: GPL-2.0-only */
/* This file implements <linux/highmem.h> for fs/squashfs: see squashlab/mm.h.
 */
#include <squashlab/mm.h>
