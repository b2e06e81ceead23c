// SPDX-License-Identifier: GPL-2.0-only
// This file implements 6.x's filemap_read over the model's page cache
// (filemap_read_6x.h).
#include "model/mm/filemap_read_6x.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "model/kernel/fs.h"
#include "model/kernel/kernel.h"
#include "model/kernel/page.h"
#include "model/mm/readahead_6x.h"

namespace squashlab {
namespace {

// include/linux/fs.h: "the page was truncated: look it up again".
constexpr int AOP_TRUNCATED_PAGE = 0x80001;

bool Is6_1() { return Kernel::Current().config().mm_era == MmEra::k6_1; }

// include/linux/pagevec.h: 15 in 6.1, 31 since 6.5.
size_t BatchSize() { return Is6_1() ? 15 : 31; }

// filemap_get_read_batch: referenced cached pages from index to max,
// stopping after the first one that is !uptodate or PG_readahead.
void filemap_get_read_batch(address_space* mapping, pgoff_t index, pgoff_t max,
                            std::vector<page*>& batch) {
  for (pgoff_t i = index; i <= max && batch.size() < BatchSize(); i++) {
    page* p = find_get_page(mapping, i);
    if (p == nullptr) break;
    batch.push_back(p);
    if (!PageUptodate(p) || PageReadahead(p)) break;
  }
}

// filemap_update_page: returns 0 (p uptodate, still referenced),
// AOP_TRUNCATED_PAGE (p released: look up again) or an error (p still
// referenced).
int filemap_update_page(file* filp, page* p) {
  if (!trylock_page(p)) {
    // folio_put_wait_locked: where a reader usually waits for the
    // readahead it found in flight. (The kernel drops the reference first;
    // here it is dropped after the wait.)
    wait_on_page_locked(p);
    put_page(p);
    return AOP_TRUNCATED_PAGE;
  }
  if (p->mapping == nullptr) {
    unlock_page(p);
    put_page(p);
    return AOP_TRUNCATED_PAGE;
  }
  if (PageUptodate(p)) {
    unlock_page(p);
    return 0;
  }
  return filemap_read_folio(filp, p);
}

// filemap_create_folio: a new page at index, read through ->read_folio.
int filemap_create_folio(file* filp, pgoff_t index, std::vector<page*>& batch) {
  page* p = page_cache_alloc(filp->f_mapping);
  if (p == nullptr) return -ENOMEM;
  int error = add_to_page_cache_lru(p, filp->f_mapping, index, GFP_KERNEL);
  if (error == -EEXIST) error = AOP_TRUNCATED_PAGE;
  if (!error) error = filemap_read_folio(filp, p);
  if (error) {
    put_page(p);
    return error;
  }
  batch.push_back(p);
  return 0;
}

int filemap_get_pages(file* filp, int64_t pos, size_t count,
                      std::vector<page*>& batch) {
  address_space* mapping = filp->f_mapping;
  file_ra_state* ra = &filp->f_ra;
  pgoff_t index = static_cast<pgoff_t>(pos) >> PAGE_CACHE_SHIFT;
  pgoff_t last_index = static_cast<pgoff_t>(
      (static_cast<uint64_t>(pos) + count + PAGE_CACHE_SIZE - 1) >>
      PAGE_CACHE_SHIFT);
  for (;;) {
    filemap_get_read_batch(mapping, index, last_index - 1, batch);
    if (batch.empty()) {
      page_cache_sync_ra(mapping, ra, filp, index, last_index - index);
      filemap_get_read_batch(mapping, index, last_index - 1, batch);
    }
    if (batch.empty()) {
      int err = filemap_create_folio(filp, index, batch);
      if (err == AOP_TRUNCATED_PAGE) continue;
      return err;
    }
    page* p = batch.back();
    if (PageReadahead(p))
      page_cache_async_ra(mapping, ra, filp, p, p->index,
                          last_index - p->index);
    if (PageUptodate(p)) return 0;
    int err = filemap_update_page(filp, p);
    if (!err) return 0;
    if (err < 0) put_page(p);
    batch.pop_back();
    if (!batch.empty()) return 0;
    if (err == AOP_TRUNCATED_PAGE) continue;
    return err;
  }
}

}  // namespace

int filemap_read_folio(file* filp, page* p) {
  if (Is6_1()) ClearPageError(p);  // 6.12 has no PG_error
  int error = filp->f_mapping->a_ops->readpage(filp, p);
  if (error) return error;
  wait_on_page_locked(p);
  if (PageUptodate(p)) return 0;
  filp->f_ra.ra_pages /= 4;  // shrink_readahead_size_eio
  return -EIO;
}

long filemap_read(file* filp, char* buf, size_t count, int64_t* ppos) {
  file_ra_state* ra = &filp->f_ra;
  inode* ino = mapping_host(filp->f_mapping);
  long long last_pos = ra->prev_pos;
  int64_t pos = *ppos;
  size_t done = 0;
  int error = 0;
  if (count == 0) return 0;
  std::vector<page*> batch;
  uint64_t isize = 0;
  do {
    if (static_cast<uint64_t>(pos) >= i_size_read(ino)) break;
    error = filemap_get_pages(filp, pos, count - done, batch);
    if (error < 0) break;
    // i_size is read after the pages are known to be uptodate.
    isize = i_size_read(ino);
    if (static_cast<uint64_t>(pos) < isize) {
      uint64_t end_offset =
          std::min<uint64_t>(isize, static_cast<uint64_t>(pos) + count - done);
      for (page* p : batch) {
        uint64_t page_pos = static_cast<uint64_t>(p->index) << PAGE_CACHE_SHIFT;
        if (end_offset < page_pos) break;
        size_t offset = static_cast<size_t>(pos) & (PAGE_CACHE_SIZE - 1);
        size_t bytes = static_cast<size_t>(std::min<uint64_t>(
            end_offset - static_cast<uint64_t>(pos), PAGE_CACHE_SIZE - offset));
        std::memcpy(buf + done, static_cast<char*>(page_address(p)) + offset,
                    bytes);
        model_charge(CostKind::kMemcpyByte, bytes);
        done += bytes;
        pos += static_cast<int64_t>(bytes);
        last_pos = pos;
      }
    }
    for (page* p : batch) put_page(p);
    batch.clear();
  } while (done < count && static_cast<uint64_t>(pos) < isize && !error);
  ra->prev_pos = last_pos;
  *ppos = pos;
  return done ? static_cast<long>(done) : error;
}

}  // namespace squashlab
