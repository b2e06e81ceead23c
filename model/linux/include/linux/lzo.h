/* SPDX-License-Identifier: GPL-2.0-only */
/* This file implements <linux/lzo.h> for fs/squashfs: see squashlab/compress.h.
 */
#include <squashlab/compress.h>
