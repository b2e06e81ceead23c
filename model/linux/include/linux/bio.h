/* SPDX-License-Identifier: GPL-2.0-only */
/* This file implements <linux/bio.h> for fs/squashfs: see squashlab/bio.h. */
#include <squashlab/bio.h>
