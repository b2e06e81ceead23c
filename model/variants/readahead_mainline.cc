// SPDX-License-Identifier: GPL-2.0-only
// This file implements `readahead-mainline`: today's squashfs (fs/squashfs/
// file.c squashfs_readahead, file_direct.c), where the MM layer adds the
// readahead pages to the page cache and locks them before calling
// ->readahead, and squashfs decompresses each block straight into the pages
// it was given (absent pages go to a scratch page through the actor), then
// unlocks them. read_folio grabs the block's pages as 3.13 did but needs no
// cache fallback: missing pages are NULL in the actor.
// Deviation: on a failed block mainline leaves the pages !uptodate and lets
// read_folio retry; here they get PG_error as well, since the model's
// quiescence check cannot tell such a page from a lost completion.
#include <cstring>

#include "model/kernel/filemap.h"
#include "model/kernel/kernel.h"
#include "model/kernel/page.h"
#include "model/kernel/slab.h"
#include "model/variants/cache.h"
#include "model/variants/page_actor.h"
#include "model/variants/read_path.h"

namespace squashlab {
namespace {

// Reads block `index` of the file into page[0, pages) (NULL entries are
// skipped); returns the decoded length or a negative error.
int read_block_into(inode* ino, int index, page** page, int pages) {
  squashfs_sb_info* msblk = SQUASHFS_SB(ino->i_sb);
  int file_end = static_cast<int>(i_size_read(ino) >> msblk->block_log);
  if (index >= file_end &&
      squashfs_i(ino)->fragment_block != SQUASHFS_INVALID_BLK) {
    squashfs_cache_entry* e =
        squashfs_get_fragment(ino->i_sb, squashfs_i(ino)->fragment_block,
                              static_cast<int>(squashfs_i(ino)->fragment_size));
    int res = e->error;
    int expected = static_cast<int>(i_size_read(ino) & (msblk->block_size - 1));
    for (int i = 0; !res && i < pages; i++) {
      if (page[i] == nullptr) continue;
      int off = i * static_cast<int>(PAGE_CACHE_SIZE);
      int avail = std::max(
          0, std::min(expected - off, static_cast<int>(PAGE_CACHE_SIZE)));
      char* addr = static_cast<char*>(kmap_atomic(page[i]));
      squashfs_copy_data(
          addr, e, static_cast<int>(squashfs_i(ino)->fragment_offset) + off,
          avail);
      std::memset(addr + avail, 0,
                  PAGE_CACHE_SIZE - static_cast<size_t>(avail));
      kunmap_atomic(addr);
    }
    squashfs_cache_put(e);
    return res ? res : expected;
  }
  uint64_t block = 0;
  int bsize = read_blocklist(ino, index, &block);
  if (bsize < 0) return bsize;
  if (bsize == 0) {  // sparse
    for (int i = 0; i < pages; i++) {
      if (page[i] == nullptr) continue;
      void* addr = kmap_atomic(page[i]);
      std::memset(addr, 0, PAGE_CACHE_SIZE);
      kunmap_atomic(addr);
    }
    return pages * static_cast<int>(PAGE_CACHE_SIZE);
  }
  squashfs_page_actor* actor =
      squashfs_page_actor_init_special(page, pages, nullptr, 0);
  int res = squashfs_read_data(ino->i_sb, block, bsize, nullptr, actor);
  kfree(actor);
  if (res > 0 && res % static_cast<int>(PAGE_CACHE_SIZE) && page[pages - 1]) {
    int bytes = res % static_cast<int>(PAGE_CACHE_SIZE);
    char* addr = static_cast<char*>(kmap_atomic(page[pages - 1]));
    std::memset(addr + bytes, 0, PAGE_CACHE_SIZE - static_cast<size_t>(bytes));
    kunmap_atomic(addr);
  }
  return res;
}

// The pages of the block holding `first`, as (start index, count).
void block_span(inode* ino, unsigned long first, int* start, int* pages) {
  squashfs_sb_info* msblk = SQUASHFS_SB(ino->i_sb);
  int mask = (1 << (msblk->block_log - PAGE_CACHE_SHIFT)) - 1;
  int file_end = static_cast<int>((i_size_read(ino) - 1) >> PAGE_CACHE_SHIFT);
  *start = static_cast<int>(first) & ~mask;
  *pages = std::min(*start | mask, file_end) - *start + 1;
}

void finish(page** page, int pages, int res, struct page* keep) {
  for (int i = 0; i < pages; i++) {
    if (page[i] == nullptr) continue;
    flush_dcache_page(page[i]);
    if (res >= 0)
      SetPageUptodate(page[i]);
    else
      SetPageError(page[i]);
    unlock_page(page[i]);
    if (page[i] != keep) page_cache_release(page[i]);
  }
}

void squashfs_readahead(readahead_control* rac) {
  const std::vector<page*>& pages = rac->pages;
  inode* ino = mapping_host(rac->mapping);
  squashfs_sb_info* msblk = SQUASHFS_SB(ino->i_sb);
  int shift = msblk->block_log - PAGE_CACHE_SHIFT;
  size_t i = 0;
  while (i < pages.size()) {
    int start, n;
    block_span(ino, pages[i]->index, &start, &n);
    auto** batch = static_cast<page**>(
        kcalloc(static_cast<size_t>(n), sizeof(page*), GFP_KERNEL));
    for (; i < pages.size() && (pages[i]->index >> shift) ==
                                   (static_cast<unsigned long>(start) >> shift);
         i++) {
      get_page(pages[i]);  // finish() drops it
      batch[pages[i]->index - static_cast<unsigned long>(start)] = pages[i];
    }
    int res = read_block_into(ino, start >> shift, batch, n);
    finish(batch, n, res, nullptr);
    kfree(batch);
  }
}

int squashfs_read_folio(file* filp, page* target) {
  inode* ino = mapping_host(target->mapping);
  if (target->index >=
      ((i_size_read(ino) + PAGE_CACHE_SIZE - 1) >> PAGE_CACHE_SHIFT))
    return squashfs_readpage(filp, target);  // beyond EOF: zero it
  squashfs_sb_info* msblk = SQUASHFS_SB(ino->i_sb);
  int start, n;
  block_span(ino, target->index, &start, &n);
  auto** page = static_cast<struct page**>(
      kcalloc(static_cast<size_t>(n), sizeof(void*), GFP_KERNEL));
  for (int i = 0; i < n; i++) {
    unsigned long idx = static_cast<unsigned long>(start + i);
    page[i] = idx == target->index
                  ? target
                  : grab_cache_page_nowait(target->mapping, idx);
    if (page[i] && page[i] != target && PageUptodate(page[i])) {
      unlock_page(page[i]);
      page_cache_release(page[i]);
      page[i] = nullptr;
    }
  }
  int res = read_block_into(ino, start >> (msblk->block_log - PAGE_CACHE_SHIFT),
                            page, n);
  finish(page, n, res, target);
  kfree(page);
  return 0;
}

int unused_readpage_block(page*, uint64_t, int) { return -EIO; }

}  // namespace

const ReadPathOps kReadaheadMainline = {
    "readahead-mainline",
    "today's kernel: ->readahead into the MM's locked pages, read_folio per "
    "block",
    unused_readpage_block,
    nullptr,
    squashfs_readahead,
    squashfs_read_folio,
};

}  // namespace squashlab
