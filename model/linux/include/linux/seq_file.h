/* SPDX-License-Identifier: GPL-2.0-only */
/* This file implements <linux/seq_file.h> for fs/squashfs: see squashlab/fs.h.
 */
#include <squashlab/fs.h>
