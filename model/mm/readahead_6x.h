// SPDX-License-Identifier: GPL-2.0-only
// This file implements the readahead of 6.1's and 6.12's mm/readahead.c over
// the model's page cache, for file systems with ->readahead (or only
// ->read_folio): page_cache_sync_ra on a miss and page_cache_async_ra on a
// PG_readahead page (6.1 through ondemand_readahead, 6.12 with the window
// logic split between the two), the window rules of each (get_init_ra_size,
// get_next_ra_size, the self-hit merge of 6.1, 6.12's history probe with
// async_size 1), do_page_cache_ra clamped to the last page of the file, and
// page_cache_ra_unbounded: pages allocated, added to the page cache locked
// and batched while contiguous, a batch handed to read_pages as soon as a
// cached page interrupts it, the PG_readahead mark on the page where the
// next window starts. read_pages runs the batch under one plug and cleans up
// what the file system left, as 6.x does: each page left shrinks ra->size,
// and while ra->async_size allows it the page is removed from the cache
// (else it stays, unlocked and !uptodate, for read_folio to retry).
// A mapping without large folios (squashfs) always takes the order-0 path.
#ifndef SQUASHLAB_MODEL_MM_READAHEAD_6X_H_
#define SQUASHLAB_MODEL_MM_READAHEAD_6X_H_

#include "model/kernel/filemap.h"
#include "model/kernel/fs.h"

namespace squashlab {

// The window of the kernel selected by Kernel::Current().config().mm_era
// (6.1 or 6.12). `filp` may be nullptr (no file: no forced readahead).
void page_cache_sync_ra(address_space* mapping, file_ra_state* ra, file* filp,
                        pgoff_t index, unsigned long req_count);
void page_cache_async_ra(address_space* mapping, file_ra_state* ra, file* filp,
                         page* pg, pgoff_t index, unsigned long req_count);

// page_cache_ra_order(ractl, ra, 0) with the control's index at ra->start,
// as the mmap read-around submits the window it has set (mm/filemap.c
// do_sync_mmap_readahead): a mapping without large folios takes its
// fallback, do_page_cache_ra(ra->size, ra->async_size).
void page_cache_ra_order(address_space* mapping, file_ra_state* ra, file* filp);

// The window arithmetic of 6.x, exposed for tests (get_init_ra_size is
// 3.13's, readahead.h).
unsigned long get_next_ra_size_6x(unsigned long cur, unsigned long max);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_MM_READAHEAD_6X_H_
