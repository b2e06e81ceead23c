/* SPDX-License-Identifier: GPL-2.0-only */
/* This file implements <linux/math64.h> for the lib/ decompressors: see
 * squashlab/base.h. */
#include <squashlab/base.h>
