// SPDX-License-Identifier: GPL-2.0-only
// This file implements fs/buffer.c's per-CPU buffer_head LRU: the last
// BH_LRU_SIZE buffers a CPU looked up, each holding a reference of its
// own. __getblk looks here first (lookup_bh_lru) and installs what it finds
// elsewhere (bh_lru_install); the entry that falls off the end is released
// with __brelse by whichever task installed the new one: on the 2013
// thread, a journal thread's lookup is what printed "VFS: brelse: Trying
// to free free buffer" for a buffer a read path had put once too often.
#ifndef SQUASHLAB_MODEL_KERNEL_BH_LRU_H_
#define SQUASHLAB_MODEL_KERNEL_BH_LRU_H_

#include "model/kernel/block_device.h"

namespace squashlab {

struct buffer_head;

// 3.13's size (16 since 4.x).
inline constexpr int BH_LRU_SIZE = 8;

// This CPU's entry for (bdev, block), moved to the front, with get_bh;
// nullptr on a miss.
buffer_head* lookup_bh_lru(block_device* bdev, sector_t block);
// Puts bh at the front of this CPU's LRU with a reference of its own
// (get_bh); the entry pushed off the end is released with __brelse.
void bh_lru_install(buffer_head* bh);
// Every CPU's LRU emptied, each entry released with __brelse (umount's
// kill_bdev -> invalidate_bh_lrus).
void invalidate_bh_lrus();

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_KERNEL_BH_LRU_H_
