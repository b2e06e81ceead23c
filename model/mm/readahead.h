// SPDX-License-Identifier: GPL-2.0-only
// This file implements the 3.13 on-demand readahead of mm/readahead.c over
// the model's page cache: page_cache_sync_readahead on a miss,
// page_cache_async_readahead on a PG_readahead page, ondemand_readahead's
// window (initial size from the request, ramp-up x4 then x2, capped at
// ra_pages), __do_page_cache_readahead allocating the missing pages with
// the PG_readahead mark, and read_pages handing them to the filesystem
// (->readpages, mainline's ->readahead, or add_to_page_cache_lru + readpage).
#ifndef SQUASHLAB_MODEL_MM_READAHEAD_H_
#define SQUASHLAB_MODEL_MM_READAHEAD_H_

#include "model/kernel/filemap.h"
#include "model/kernel/fs.h"

namespace squashlab {

void page_cache_sync_readahead(address_space* mapping, file_ra_state* ra,
                               file* filp, pgoff_t offset,
                               unsigned long req_size);
void page_cache_async_readahead(address_space* mapping, file_ra_state* ra,
                                file* filp, page* pg, pgoff_t offset,
                                unsigned long req_size);
// Returns the number of pages handed to the filesystem.
int __do_page_cache_readahead(address_space* mapping, file* filp,
                              pgoff_t offset, unsigned long nr_to_read,
                              unsigned long lookahead_size);

// The window arithmetic, exposed for tests.
unsigned long get_init_ra_size(unsigned long size, unsigned long max);
unsigned long get_next_ra_size(const file_ra_state* ra, unsigned long max);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_MM_READAHEAD_H_
