// SPDX-License-Identifier: GPL-2.0-only
// This file implements the 3.13 readahead window and page submission.
#include "model/mm/readahead.h"

#include <vector>

#include "model/kernel/blk_plug.h"
#include "model/kernel/fs.h"
#include "model/kernel/kernel.h"
#include "model/kernel/page.h"

namespace squashlab {
namespace {

unsigned long roundup_pow_of_two(unsigned long n) {
  unsigned long p = 1;
  while (p < n) p <<= 1;
  return p;
}

bool page_in_cache(address_space* mapping, pgoff_t index) {
  return page_cache_has(mapping, index);
}

// radix_tree_next_hole: the first index >= index (within max) not cached.
pgoff_t next_hole(address_space* mapping, pgoff_t index, unsigned long max) {
  for (unsigned long i = 0; i < max; i++, index++)
    if (!page_in_cache(mapping, index)) return index;
  return index;
}

namespace {

void read_pages_plugged(address_space* mapping, file* filp,
                        std::vector<page*>& pages) {
  const address_space_operations* ops = mapping->a_ops;
  if (ops->readpages) {
    ops->readpages(filp, mapping, &pages);
    for (page* p : pages) page_cache_release(p);  // put_pages_list
    return;
  }
  if (ops->readahead) {
    readahead_control rac{filp, mapping, {}, filp ? &filp->f_ra : nullptr};
    for (page* p : pages) {
      if (!add_to_page_cache_lru(p, mapping, p->index, GFP_KERNEL))
        rac.pages.push_back(p);
      else
        page_cache_release(p);
    }
    if (!rac.pages.empty()) ops->readahead(&rac);
    for (page* p : rac.pages) {  // not taken by the file system
      unlock_page(p);
      page_cache_release(p);
    }
    return;
  }
  for (page* p : pages) {
    if (!add_to_page_cache_lru(p, mapping, p->index, GFP_KERNEL))
      ops->readpage(filp, p);
    page_cache_release(p);
  }
}

}  // namespace

// mm/readahead.c's read_pages: the batch runs under one plug, so the bios
// of a readahead window reach the device queue together (and merge); a
// read path that sleeps on its own I/O flushes the plug as it sleeps.
void read_pages(address_space* mapping, file* filp, std::vector<page*>& pages) {
  blk_plug plug;
  blk_start_plug(&plug);
  read_pages_plugged(mapping, filp, pages);
  blk_finish_plug(&plug);
}

// Counts the contiguously cached pages just before offset.
unsigned long count_history_pages(address_space* mapping, pgoff_t offset,
                                  unsigned long max) {
  unsigned long n = 0;
  while (n < max && offset > n && page_in_cache(mapping, offset - n - 1)) n++;
  return n;
}

bool try_context_readahead(address_space* mapping, file_ra_state* ra,
                           pgoff_t offset, unsigned long req_size,
                           unsigned long max) {
  unsigned long size = count_history_pages(mapping, offset, max);
  if (!size) return false;        // no history: a random read
  if (size >= offset) size *= 2;  // read from the start of file
  ra->start = offset;
  ra->size = static_cast<unsigned>(get_init_ra_size(size + req_size, max));
  ra->async_size = ra->size;
  return true;
}

int ra_submit(file_ra_state* ra, address_space* mapping, file* filp) {
  return __do_page_cache_readahead(mapping, filp, ra->start, ra->size,
                                   ra->async_size);
}

int ondemand_readahead(address_space* mapping, file_ra_state* ra, file* filp,
                       bool hit_readahead_marker, pgoff_t offset,
                       unsigned long req_size) {
  unsigned long max = ra->ra_pages;
  if (!offset) goto initial_readahead;
  // It's the expected callback offset: assume sequential access, ramp up.
  if (offset == ra->start + ra->size - ra->async_size ||
      offset == ra->start + ra->size) {
    ra->start += ra->size;
    ra->size = static_cast<unsigned>(get_next_ra_size(ra, max));
    ra->async_size = ra->size;
    goto readit;
  }
  // Hit a marked page without valid readahead state: interleaved reads.
  if (hit_readahead_marker) {
    pgoff_t start = next_hole(mapping, offset + 1, max);
    if (!start || start - offset > max) return 0;
    ra->start = start;
    ra->size = static_cast<unsigned>(start - offset + req_size);
    ra->size = static_cast<unsigned>(get_next_ra_size(ra, max));
    ra->async_size = ra->size;
    goto readit;
  }
  if (req_size > max) goto initial_readahead;
  if (offset - static_cast<pgoff_t>(ra->prev_pos >> PAGE_CACHE_SHIFT) <= 1UL)
    goto initial_readahead;
  if (try_context_readahead(mapping, ra, offset, req_size, max)) goto readit;
  // Standalone, small random read: read as is.
  return __do_page_cache_readahead(mapping, filp, offset, req_size, 0);

initial_readahead:
  ra->start = offset;
  ra->size = static_cast<unsigned>(get_init_ra_size(req_size, max));
  ra->async_size = ra->size > req_size
                       ? static_cast<unsigned>(ra->size - req_size)
                       : ra->size;
readit:
  // Will this read hit the readahead marker made by itself? If so, trigger
  // the next readahead now and merge both in one I/O.
  if (offset == ra->start && ra->size == ra->async_size) {
    ra->async_size = static_cast<unsigned>(get_next_ra_size(ra, max));
    ra->size += ra->async_size;
  }
  return ra_submit(ra, mapping, filp);
}

}  // namespace

unsigned long get_init_ra_size(unsigned long size, unsigned long max) {
  unsigned long newsize = roundup_pow_of_two(size);
  if (newsize <= max / 32)
    newsize = newsize * 4;
  else if (newsize <= max / 4)
    newsize = newsize * 2;
  else
    newsize = max;
  return newsize;
}

unsigned long get_next_ra_size(const file_ra_state* ra, unsigned long max) {
  unsigned long cur = ra->size, newsize;
  if (cur < max / 16)
    newsize = 4 * cur;
  else
    newsize = 2 * cur;
  return newsize < max ? newsize : max;
}

int __do_page_cache_readahead(address_space* mapping, file* filp,
                              pgoff_t offset, unsigned long nr_to_read,
                              unsigned long lookahead_size) {
  inode* ino = mapping_host(mapping);
  uint64_t isize = i_size_read(ino);
  if (isize == 0) return 0;
  pgoff_t end_index = static_cast<pgoff_t>((isize - 1) >> PAGE_CACHE_SHIFT);
  std::vector<page*> pool;
  // Preallocate as many pages as we will need.
  for (unsigned long page_idx = 0; page_idx < nr_to_read; page_idx++) {
    pgoff_t page_offset = offset + page_idx;
    if (page_offset > end_index) break;
    if (page_in_cache(mapping, page_offset)) continue;
    page* p = page_cache_alloc_readahead(mapping);
    p->index = page_offset;
    if (page_idx == nr_to_read - lookahead_size) SetPageReadahead(p);
    pool.push_back(p);
  }
  int ret = static_cast<int>(pool.size());
  if (ret) read_pages(mapping, filp, pool);
  return ret;
}

void page_cache_sync_readahead(address_space* mapping, file_ra_state* ra,
                               file* filp, pgoff_t offset,
                               unsigned long req_size) {
  if (!ra->ra_pages) return;
  if (filp && filp->random) {
    __do_page_cache_readahead(mapping, filp, offset, req_size, 0);
    return;
  }
  ondemand_readahead(mapping, ra, filp, false, offset, req_size);
}

void page_cache_async_readahead(address_space* mapping, file_ra_state* ra,
                                file* filp, page* pg, pgoff_t offset,
                                unsigned long req_size) {
  if (!ra->ra_pages) return;
  ClearPageReadahead(pg);
  ondemand_readahead(mapping, ra, filp, true, offset, req_size);
}

}  // namespace squashlab
