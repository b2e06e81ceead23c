// SPDX-License-Identifier: GPL-2.0-only
// This file implements `readahead-mainline`: today's squashfs (fs/squashfs/
// file.c squashfs_readahead, file_direct.c), where the MM layer adds the
// readahead pages to the page cache and locks them before calling
// ->readahead, and squashfs decompresses each block straight into the pages
// it was given (absent pages go to a scratch page through the actor), then
// unlocks them. read_folio grabs the block's pages as 3.13 did but needs no
// cache fallback: missing pages are NULL in the actor. A failed block leaves
// its pages !uptodate (no PG_error, as 6.12): the reader's filemap_read
// retries through read_folio and returns EIO. It runs under 6.12's MM.
#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include "model/kernel/filemap.h"
#include "model/kernel/fs.h"
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
    if (res >= 0) SetPageUptodate(page[i]);
    unlock_page(page[i]);
    if (page[i] != keep) page_cache_release(page[i]);
  }
}

void squashfs_readahead(readahead_control* rac) {
  inode* ino = mapping_host(rac->mapping);
  squashfs_sb_info* msblk = SQUASHFS_SB(ino->i_sb);
  int shift = msblk->block_log - PAGE_CACHE_SHIFT;
  // Whole blocks: the window grows to the blocks it touches (6.12).
  const uint64_t mask = (uint64_t{1} << msblk->block_log) - 1;
  const uint64_t pos = static_cast<uint64_t>(rac->pages.front()->index)
                       << PAGE_CACHE_SHIFT;
  const uint64_t first = pos & ~mask;
  const uint64_t len = rac->pages.size() * PAGE_CACHE_SIZE + pos - first;
  readahead_expand(rac, first, static_cast<size_t>((len | mask) + 1));
  // Takes the pages block by block from the front of the batch, with the
  // MM's reference (finish() drops it), as the kernel's loop over
  // __readahead_batch does; what it does not take the MM cleans up.
  std::vector<page*>& pages = rac->pages;
  const uint64_t isize = i_size_read(ino);
  const uint64_t file_end = isize >> msblk->block_log;
  size_t i = 0;
  while (i < pages.size()) {
    // A batch holds the pages of one block, up to the bytes it has.
    const uint64_t block = pages[i]->index >> shift;
    const uint64_t expected = block == file_end ? (isize & mask) : mask + 1;
    const size_t max_pages =
        static_cast<size_t>((expected + PAGE_CACHE_SIZE - 1) / PAGE_CACHE_SIZE);
    if (max_pages == 0) break;  // the file ends on the previous block
    if ((static_cast<uint64_t>(pages[i]->index) << PAGE_CACHE_SHIFT) >= isize) {
      // Past the end of the file: released unread, and the rest left.
      size_t n = std::min(max_pages, pages.size() - i);
      for (size_t k = i; k < i + n; k++) {
        unlock_page(pages[k]);
        page_cache_release(pages[k]);
      }
      i += n;
      break;
    }
    int start, n;
    block_span(ino, pages[i]->index, &start, &n);
    auto** batch = static_cast<page**>(
        kcalloc(static_cast<size_t>(n), sizeof(page*), GFP_KERNEL));
    for (; i < pages.size() &&
           pages[i]->index < static_cast<unsigned long>(start + n);
         i++) {
      batch[pages[i]->index - static_cast<unsigned long>(start)] = pages[i];
    }
    int res = read_block_into(ino, start >> shift, batch, n);
    finish(batch, n, res, nullptr);
    kfree(batch);
  }
  pages.erase(pages.begin(), pages.begin() + static_cast<long>(i));
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
    MmEra::k6_12,
};

}  // namespace squashlab
