/* SPDX-License-Identifier: GPL-2.0-only */
/* This file implements <linux/cpumask.h> for fs/squashfs: see
 * squashlab/sched.h. */
#include <squashlab/sched.h>
