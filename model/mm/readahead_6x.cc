// SPDX-License-Identifier: GPL-2.0-only
// This file implements the 6.1 and 6.12 readahead window and page
// submission (readahead_6x.h).
#include "model/mm/readahead_6x.h"

#include <algorithm>
#include <climits>
#include <vector>

#include "model/kernel/blk_plug.h"
#include "model/kernel/fs.h"
#include "model/kernel/kernel.h"
#include "model/kernel/page.h"
#include "model/mm/readahead.h"

namespace squashlab {
namespace {

bool Is6_1() { return Kernel::Current().config().mm_era == MmEra::k6_1; }

// page_cache_next_miss: the first index from `index` on (index itself
// included) not in the cache; when all max_scan are cached, 6.1 returns the
// last index scanned and 6.12 the one after it.
pgoff_t page_cache_next_miss(address_space* mapping, pgoff_t index,
                             unsigned long max_scan) {
  for (unsigned long n = 0; n < max_scan; n++) {
    pgoff_t i = index + n;
    if (!page_cache_has(mapping, i)) return i;
    if (i == ULONG_MAX) return 0;
  }
  if (max_scan == 0) return index;
  return Is6_1() ? index + max_scan - 1 : index + max_scan;
}

// page_cache_prev_miss: the first index from `index` down not in the
// cache; ULONG_MAX when the scan passes page 0; the last index scanned when
// all max_scan are cached.
pgoff_t page_cache_prev_miss(address_space* mapping, pgoff_t index,
                             unsigned long max_scan) {
  pgoff_t i = index;
  for (unsigned long n = 0; n < max_scan; n++) {
    i = index - n;  // wraps to ULONG_MAX below page 0
    if (!page_cache_has(mapping, i)) return i;
    if (i == 0) return n + 1 < max_scan ? ULONG_MAX : 0;
  }
  return i;
}

// read_pages: hands the batch to ->readahead (or page by page to
// ->read_folio) under one plug, then unlocks and releases what the file
// system left, shrinking the window by it and dropping those pages from the
// cache while the window's async part covers them.
void read_pages(readahead_control& r) {
  if (r.pages.empty()) return;
  const address_space_operations* ops = r.mapping->a_ops;
  blk_plug plug;
  blk_start_plug(&plug);
  if (ops->readahead) {
    ops->readahead(&r);
    for (page* p : r.pages) {
      r.ra->size -= 1;
      if (r.ra->async_size >= 1) {
        r.ra->async_size -= 1;
        delete_from_page_cache(p);
      }
      unlock_page(p);
      put_page(p);
    }
  } else {
    // readahead_folio drops the MM's reference before ->read_folio runs;
    // the page cache's keeps the page.
    for (page* p : r.pages) {
      put_page(p);
      ops->readpage(r.file, p);
    }
  }
  r.pages.clear();
  blk_finish_plug(&plug);
}

// page_cache_ra_unbounded: pages for [index, index + nr_to_read), added
// locked to the cache; a cached page (or a lost race to add one) sends the
// batch so far and is skipped.
void page_cache_ra_unbounded(readahead_control& r, pgoff_t index,
                             unsigned long nr_to_read,
                             unsigned long lookahead_size) {
  unsigned long mark = nr_to_read - lookahead_size;
  for (unsigned long i = 0; i < nr_to_read; i++) {
    if (page_cache_has(r.mapping, index + i)) {
      read_pages(r);
      continue;
    }
    page* p = page_cache_alloc_readahead(r.mapping);
    if (p == nullptr) break;
    if (add_to_page_cache_lru(p, r.mapping, index + i, GFP_KERNEL) < 0) {
      put_page(p);
      read_pages(r);
      continue;
    }
    if (i == mark) SetPageReadahead(p);
    r.pages.push_back(p);
  }
  // I/O errors are not looked at: a page left !uptodate is read again by
  // ->read_folio when someone needs it.
  read_pages(r);
}

// do_page_cache_ra: never past the page holding the file's last byte.
void do_page_cache_ra(readahead_control& r, pgoff_t index,
                      unsigned long nr_to_read, unsigned long lookahead_size) {
  uint64_t isize = i_size_read(mapping_host(r.mapping));
  if (isize == 0) return;
  pgoff_t end_index = static_cast<pgoff_t>((isize - 1) >> PAGE_CACHE_SHIFT);
  if (index > end_index) return;
  if (nr_to_read > end_index - index) nr_to_read = end_index - index + 1;
  page_cache_ra_unbounded(r, index, nr_to_read, lookahead_size);
}

// force_page_cache_ra: FMODE_RANDOM or readahead off: the request as is, up
// to the device's optimal I/O size, in 2 MiB chunks.
void force_page_cache_ra(readahead_control& r, pgoff_t index,
                         unsigned long nr_to_read) {
  const address_space_operations* ops = r.mapping->a_ops;
  if (!ops->readpage && !ops->readahead) return;
  unsigned long max_pages = std::max(r.ra->io_pages, r.ra->ra_pages);
  nr_to_read = std::min(nr_to_read, max_pages);
  while (nr_to_read) {
    unsigned long chunk = std::min<unsigned long>(
        (2UL * 1024 * 1024) / PAGE_CACHE_SIZE, nr_to_read);
    do_page_cache_ra(r, index, chunk, 0);
    index += chunk;
    nr_to_read -= chunk;
  }
}

// An oversized read may grow the window to the device's optimal I/O size.
unsigned long ractl_max_pages(const readahead_control& r,
                              unsigned long req_size) {
  unsigned long max_pages = r.ra->ra_pages;
  if (req_size > max_pages && r.ra->io_pages > max_pages)
    max_pages = std::min<unsigned long>(req_size, r.ra->io_pages);
  return max_pages;
}

// page_cache_ra_order for a mapping without large folios: the window as
// order-0 pages.
void submit_window(readahead_control& r) {
  do_page_cache_ra(r, r.ra->start, r.ra->size, r.ra->async_size);
}

// The page the previous read ended in.
pgoff_t prev_index(const file_ra_state* ra) {
  return static_cast<pgoff_t>(static_cast<unsigned long long>(ra->prev_pos) >>
                              PAGE_CACHE_SHIFT);
}

// The expected marker was hit: a sequential stream, the next window ramps
// up and is all async.
void ramp_up(file_ra_state* ra, unsigned long max_pages) {
  ra->start += ra->size;
  ra->size = static_cast<unsigned>(std::max<unsigned long>(
      ra->size, get_next_ra_size_6x(ra->size, max_pages)));
  ra->async_size = ra->size;
}

// A marked page without a window that expects it (interleaved reads): the
// window starts at the next page not cached and grows from the cached run
// (the old async size). False when that run is too long to be one.
bool window_past_cached_run(readahead_control& r, pgoff_t index,
                            unsigned long req_size, unsigned long max_pages) {
  pgoff_t start = page_cache_next_miss(r.mapping, index + 1, max_pages);
  if (!start || start - index > max_pages) return false;
  file_ra_state* ra = r.ra;
  ra->start = start;
  ra->size = static_cast<unsigned>(start - index + req_size);
  ra->size = static_cast<unsigned>(get_next_ra_size_6x(ra->size, max_pages));
  ra->async_size = ra->size;
  return true;
}

// 6.1's ondemand_readahead; `marked` is the PG_readahead page that called
// it (async), nullptr on a miss (sync).
void ondemand_readahead_6_1(readahead_control& r, page* marked, pgoff_t index,
                            unsigned long req_size) {
  file_ra_state* ra = r.ra;
  unsigned long max_pages = ractl_max_pages(r, req_size);
  if (!index) goto initial_readahead;
  if (index == ra->start + ra->size - ra->async_size ||
      index == ra->start + ra->size) {
    ramp_up(ra, max_pages);
    goto readit;
  }
  if (marked != nullptr) {
    if (!window_past_cached_run(r, index, req_size, max_pages)) return;
    goto readit;
  }
  if (req_size > max_pages) goto initial_readahead;
  if (index - prev_index(ra) <= 1UL) goto initial_readahead;
  {
    // try_context_readahead: the cached history behind index.
    pgoff_t head = page_cache_prev_miss(r.mapping, index - 1, max_pages);
    unsigned long size = index - 1 - head;
    if (size > req_size) {
      if (size >= index) size *= 2;
      ra->start = index;
      ra->size = static_cast<unsigned>(std::min(size + req_size, max_pages));
      ra->async_size = 1;
      goto readit;
    }
  }
  // A standalone, small random read: as is, the window untouched.
  do_page_cache_ra(r, index, req_size, 0);
  return;

initial_readahead:
  ra->start = index;
  ra->size = static_cast<unsigned>(get_init_ra_size(req_size, max_pages));
  ra->async_size = ra->size > req_size
                       ? static_cast<unsigned>(ra->size - req_size)
                       : ra->size;
readit:
  // A read that would hit its own marker: merge the next window now.
  if (index == ra->start && ra->size == ra->async_size) {
    unsigned long add_pages = get_next_ra_size_6x(ra->size, max_pages);
    if (ra->size + add_pages <= max_pages) {
      ra->async_size = static_cast<unsigned>(add_pages);
      ra->size += static_cast<unsigned>(add_pages);
    } else {
      ra->size = static_cast<unsigned>(max_pages);
      ra->async_size = static_cast<unsigned>(max_pages >> 1);
    }
  }
  submit_window(r);
}

// 6.12's page_cache_sync_ra past the forced case.
void sync_ra_6_12(readahead_control& r, pgoff_t index,
                  unsigned long req_count) {
  file_ra_state* ra = r.ra;
  unsigned long max_pages = ractl_max_pages(r, req_count);
  if (!index || req_count > max_pages || index - prev_index(ra) <= 1UL) {
    ra->start = index;
    ra->size = static_cast<unsigned>(get_init_ra_size(req_count, max_pages));
    ra->async_size = ra->size > req_count
                         ? static_cast<unsigned>(ra->size - req_count)
                         : ra->size >> 1;
    return submit_window(r);
  }
  pgoff_t miss = page_cache_prev_miss(r.mapping, index - 1, max_pages);
  unsigned long contig_count = index - miss - 1;
  if (contig_count <= req_count) {
    do_page_cache_ra(r, index, req_count, 0);
    return;
  }
  if (miss == ULONG_MAX) contig_count *= 2;
  ra->start = index;
  ra->size =
      static_cast<unsigned>(std::min(contig_count + req_count, max_pages));
  ra->async_size = 1;
  submit_window(r);
}

// 6.12's page_cache_async_ra past its early returns.
void async_ra_6_12(readahead_control& r, pgoff_t index,
                   unsigned long req_count) {
  file_ra_state* ra = r.ra;
  unsigned long max_pages = ractl_max_pages(r, req_count);
  if (index == ra->start + ra->size - ra->async_size) {
    ramp_up(ra, max_pages);
    return submit_window(r);
  }
  if (window_past_cached_run(r, index, req_count, max_pages)) submit_window(r);
}

}  // namespace

unsigned long get_next_ra_size_6x(unsigned long cur, unsigned long max) {
  if (cur < max / 16) return 4 * cur;
  if (cur <= max / 2) return 2 * cur;
  return max;
}

void page_cache_sync_ra(address_space* mapping, file_ra_state* ra, file* filp,
                        pgoff_t index, unsigned long req_count) {
  readahead_control r{filp, mapping, {}, ra};  // DEFINE_READAHEAD
  bool forced = filp != nullptr && filp->random;
  if (!ra->ra_pages) {
    if (filp == nullptr) return;
    req_count = 1;
    forced = true;
  }
  if (forced) return force_page_cache_ra(r, index, req_count);
  if (Is6_1()) return ondemand_readahead_6_1(r, nullptr, index, req_count);
  sync_ra_6_12(r, index, req_count);
}

void page_cache_ra_order(address_space* mapping, file_ra_state* ra,
                         file* filp) {
  readahead_control r{filp, mapping, {}, ra};  // DEFINE_READAHEAD
  submit_window(r);
}

void page_cache_async_ra(address_space* mapping, file_ra_state* ra, file* filp,
                         page* pg, pgoff_t index, unsigned long req_count) {
  if (!ra->ra_pages) return;
  ClearPageReadahead(pg);
  readahead_control r{filp, mapping, {}, ra};  // DEFINE_READAHEAD
  if (Is6_1()) return ondemand_readahead_6_1(r, pg, index, req_count);
  async_ra_6_12(r, index, req_count);
}

}  // namespace squashlab
