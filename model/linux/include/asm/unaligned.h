/* SPDX-License-Identifier: GPL-2.0-only */
/* This file implements <asm/unaligned.h> for the lib/ decompressors of 6.1:
 * see squashlab/unaligned.h. */
#include <squashlab/unaligned.h>
