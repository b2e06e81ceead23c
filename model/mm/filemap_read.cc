// SPDX-License-Identifier: GPL-2.0-only
// This file implements do_generic_file_read over the model's page cache.
#include "model/mm/filemap_read.h"

#include <cstring>

#include "model/kernel/fs.h"
#include "model/kernel/kernel.h"
#include "model/kernel/page.h"
#include "model/mm/readahead.h"

namespace squashlab {

file* open_file(inode* ino, unsigned ra_pages) {
  auto* f = Kernel::Current().New<file>();
  f->f_inode = ino;
  f->f_mapping = ino->i_mapping;
  f->f_ra.ra_pages = ra_pages;
  return f;
}

long generic_file_read(file* filp, char* buf, size_t count, int64_t* ppos) {
  address_space* mapping = filp->f_mapping;
  inode* ino = mapping_host(mapping);
  file_ra_state* ra = &filp->f_ra;
  pgoff_t index = static_cast<pgoff_t>(*ppos) >> PAGE_CACHE_SHIFT;
  pgoff_t prev_index = static_cast<pgoff_t>(ra->prev_pos) >> PAGE_CACHE_SHIFT;
  unsigned prev_offset =
      static_cast<unsigned>(ra->prev_pos & (PAGE_CACHE_SIZE - 1));
  pgoff_t last_index = static_cast<pgoff_t>(
      (static_cast<uint64_t>(*ppos) + count + PAGE_CACHE_SIZE - 1) >>
      PAGE_CACHE_SHIFT);
  unsigned long offset =
      static_cast<unsigned long>(*ppos) & (PAGE_CACHE_SIZE - 1);
  long copied = 0, error = 0;
  page* pg;

  for (;;) {
  find_page:
    pg = find_get_page(mapping, index);
    if (!pg) {
      page_cache_sync_readahead(mapping, ra, filp, index, last_index - index);
      pg = find_get_page(mapping, index);
      if (pg == nullptr) goto no_cached_page;
    }
    if (PageReadahead(pg))
      page_cache_async_readahead(mapping, ra, filp, pg, index,
                                 last_index - index);
    if (!PageUptodate(pg)) goto page_not_up_to_date;
  page_ok : {
    uint64_t isize = i_size_read(ino);
    pgoff_t end_index = static_cast<pgoff_t>((isize - 1) >> PAGE_CACHE_SHIFT);
    if (!isize || index > end_index) {
      page_cache_release(pg);
      goto out;
    }
    unsigned long nr = PAGE_CACHE_SIZE;
    if (index == end_index) {
      nr = ((isize - 1) & (PAGE_CACHE_SIZE - 1)) + 1;
      if (nr <= offset) {
        page_cache_release(pg);
        goto out;
      }
    }
    nr = nr - offset;
    prev_index = index;
    if (nr > count - static_cast<size_t>(copied))
      nr = count - static_cast<size_t>(copied);
    std::memcpy(buf + copied, static_cast<char*>(page_address(pg)) + offset,
                nr);
    model_charge(CostKind::kMemcpyByte, nr);
    copied += static_cast<long>(nr);
    offset += nr;
    index += offset >> PAGE_CACHE_SHIFT;
    offset &= PAGE_CACHE_SIZE - 1;
    prev_offset = static_cast<unsigned>(offset);
    page_cache_release(pg);
    if (static_cast<size_t>(copied) < count) continue;
    goto out;
  }
  page_not_up_to_date:
    lock_page(pg);
    // Did it get truncated (reclaimed) before we got the lock?
    if (!pg->mapping) {
      unlock_page(pg);
      page_cache_release(pg);
      continue;
    }
    if (PageUptodate(pg)) {
      unlock_page(pg);
      goto page_ok;
    }
  readpage:
    ClearPageError(pg);
    mapping->a_ops->readpage(filp, pg);
    if (!PageUptodate(pg)) {
      lock_page(pg);
      if (!PageUptodate(pg)) {
        if (pg->mapping == nullptr) {
          unlock_page(pg);
          page_cache_release(pg);
          goto find_page;
        }
        unlock_page(pg);
        error = -EIO;
        page_cache_release(pg);
        goto out;
      }
      unlock_page(pg);
    }
    goto page_ok;
  no_cached_page:
    pg = page_cache_alloc(mapping);
    if (int err = add_to_page_cache_lru(pg, mapping, index, GFP_KERNEL)) {
      page_cache_release(pg);
      if (err == -EEXIST) goto find_page;
      error = err;
      goto out;
    }
    goto readpage;
  }
out:
  ra->prev_pos =
      (static_cast<long long>(prev_index) << PAGE_CACHE_SHIFT) | prev_offset;
  *ppos = (static_cast<int64_t>(index) << PAGE_CACHE_SHIFT) +
          static_cast<int64_t>(offset);
  if (error && copied == 0) return error;
  return copied;
}

}  // namespace squashlab
