// SPDX-License-Identifier: GPL-2.0-only
// This file implements the declarations the FILE_DIRECT variants share:
// 3.13's page grab and squashfs_read_cache fallback (file_direct.cc) and
// the 2013 patch's squashfs_read_data_async (async_2013_block.cc).
#ifndef SQUASHLAB_MODEL_VARIANTS_FILE_DIRECT_H_
#define SQUASHLAB_MODEL_VARIANTS_FILE_DIRECT_H_

#include <cstdint>

#include "model/kernel/block_device.h"

namespace squashlab {

struct page;
struct squashfs_page_actor;

// Tries to take every page of the block, page[0, pages) for indexes
// start_index..: target_page itself, the others locked and referenced by
// grab_cache_page_nowait; a page that is absent, locked by someone else or
// already uptodate is left NULL. Returns how many are NULL.
int squashfs_grab_block_pages(page* target_page, int start_index, int pages,
                              page** page);

// Decodes the block into the cache and copies it into the non-NULL pages
// of page[0, pages), unlocking each (and releasing all but target_page).
int squashfs_read_cache(page* target_page, uint64_t block, int bsize, int pages,
                        page** page);

// The 2013 patch: submits the block's buffer heads and returns; the end_io
// handler and a work item decompress into the actor's pages and unlock them.
int squashfs_read_data_async(super_block* sb, uint64_t index, int length,
                             squashfs_page_actor* output);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_VARIANTS_FILE_DIRECT_H_
