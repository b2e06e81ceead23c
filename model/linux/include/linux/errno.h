/* SPDX-License-Identifier: GPL-2.0-only */
/* This file implements <linux/errno.h> for fs/squashfs: see squashlab/base.h.
 */
#include <squashlab/base.h>
