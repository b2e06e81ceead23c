/* SPDX-License-Identifier: GPL-2.0-only */
/* This file implements <linux/limits.h> for the lib/ decompressors: see
 * squashlab/string.h. */
#include <squashlab/string.h>
