// SPDX-License-Identifier: GPL-2.0-only
// This file implements `sync-3.13`: mainline 3.13 with SQUASHFS_FILE_DIRECT
// (fs/squashfs/file_direct.c). squashfs_readpage_block grabs every page of
// the block, decompresses straight into them with the synchronous
// squashfs_read_data, and falls back to squashfs_read_cache (decode into
// the cache, copy; file_direct.cc) when any page is missing.
#include <algorithm>
#include <cstring>

#include "model/kernel/filemap.h"
#include "model/kernel/kernel.h"
#include "model/kernel/page.h"
#include "model/kernel/slab.h"
#include "model/variants/cache.h"
#include "model/variants/file_direct.h"
#include "model/variants/page_actor.h"
#include "model/variants/read_path.h"

namespace squashlab {

namespace {

// Read separately compressed datablock directly into page cache.
int squashfs_readpage_block(page* target_page, uint64_t block, int bsize) {
  inode* ino = mapping_host(target_page->mapping);
  squashfs_sb_info* msblk = SQUASHFS_SB(ino->i_sb);
  int file_end = static_cast<int>((i_size_read(ino) - 1) >> PAGE_CACHE_SHIFT);
  int mask = (1 << (msblk->block_log - PAGE_CACHE_SHIFT)) - 1;
  int start_index = static_cast<int>(target_page->index) & ~mask;
  int end_index = start_index | mask;
  int i, pages, missing_pages, bytes, res = -ENOMEM;
  page** page;
  squashfs_page_actor* actor;

  if (end_index > file_end) end_index = file_end;
  pages = end_index - start_index + 1;

  page = static_cast<struct page**>(
      kmalloc(sizeof(void*) * static_cast<size_t>(pages), GFP_KERNEL));
  // Create a "page actor" which will kmap and kunmap the page cache pages
  // appropriately within the decompressor.
  actor = squashfs_page_actor_init_special(page, pages, nullptr, 0);

  // Try to grab all the pages covered by the Squashfs block.
  missing_pages =
      squashfs_grab_block_pages(target_page, start_index, pages, page);

  if (missing_pages) {
    // Couldn't get one or more pages: reclaimed, or racing with another
    // squashfs_readpage. Fall back to using an intermediate buffer.
    res = squashfs_read_cache(target_page, block, bsize, pages, page);
    if (res < 0) goto mark_errored;
    goto out;
  }

  // Decompress directly into the page cache buffers.
  res = squashfs_read_data(ino->i_sb, block, bsize, nullptr, actor);
  if (res < 0) goto mark_errored;

  // Last page may have trailing bytes not filled.
  bytes = res % static_cast<int>(PAGE_CACHE_SIZE);
  if (bytes) {
    char* pageaddr = static_cast<char*>(kmap_atomic(page[pages - 1]));
    std::memset(pageaddr + bytes, 0,
                PAGE_CACHE_SIZE - static_cast<size_t>(bytes));
    kunmap_atomic(pageaddr);
  }

  // Mark pages as uptodate, unlock and release.
  for (i = 0; i < pages; i++) {
    flush_dcache_page(page[i]);
    SetPageUptodate(page[i]);
    unlock_page(page[i]);
    if (page[i] != target_page) page_cache_release(page[i]);
  }
  kfree(actor);
  kfree(page);
  return 0;

mark_errored:
  // Decompression failed, mark pages as errored. Target_page is dealt with
  // by the caller.
  for (i = 0; i < pages; i++) {
    if (page[i] == nullptr || page[i] == target_page) continue;
    flush_dcache_page(page[i]);
    SetPageError(page[i]);
    unlock_page(page[i]);
    page_cache_release(page[i]);
  }
out:
  kfree(actor);
  kfree(page);
  return res;
}

}  // namespace

const ReadPathOps kSync313 = {
    "sync-3.13",
    "3.13 FILE_DIRECT: synchronous squashfs_read_data into the grabbed pages, "
    "cache fallback",
    squashfs_readpage_block,
    nullptr,
    nullptr,
    nullptr,
};

}  // namespace squashlab
