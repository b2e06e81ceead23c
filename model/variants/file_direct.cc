// SPDX-License-Identifier: GPL-2.0-only
// This file implements the parts of fs/squashfs/file_direct.c (3.13) that
// several variants share: grabbing the page-cache pages of a block, and the
// squashfs_read_cache fallback.
#include "model/variants/file_direct.h"

#include <algorithm>
#include <cstring>

#include "model/kernel/filemap.h"
#include "model/kernel/page.h"
#include "model/variants/cache.h"
#include "model/variants/squashfs.h"

namespace squashlab {

int squashfs_grab_block_pages(page* target_page, int start_index, int pages,
                              page** page) {
  int missing_pages = 0;
  for (int i = 0, n = start_index; i < pages; i++, n++) {
    page[i] = (static_cast<unsigned long>(n) == target_page->index)
                  ? target_page
                  : grab_cache_page_nowait(target_page->mapping,
                                           static_cast<pgoff_t>(n));
    if (page[i] == nullptr) {
      missing_pages++;
      continue;
    }
    if (PageUptodate(page[i])) {
      unlock_page(page[i]);
      page_cache_release(page[i]);
      page[i] = nullptr;
      missing_pages++;
    }
  }
  return missing_pages;
}

int squashfs_read_cache(page* target_page, uint64_t block, int bsize, int pages,
                        page** page) {
  inode* i = mapping_host(target_page->mapping);
  squashfs_cache_entry* buffer = squashfs_get_datablock(i->i_sb, block, bsize);
  int bytes = buffer->length, res = buffer->error, n, offset = 0;
  if (res) goto out;
  for (n = 0; n < pages && bytes > 0; n++,
      bytes -= static_cast<int>(PAGE_CACHE_SIZE),
      offset += static_cast<int>(PAGE_CACHE_SIZE)) {
    int avail = std::min(bytes, static_cast<int>(PAGE_CACHE_SIZE));
    if (page[n] == nullptr) continue;
    char* pageaddr = static_cast<char*>(kmap_atomic(page[n]));
    squashfs_copy_data(pageaddr, buffer, offset, avail);
    std::memset(pageaddr + avail, 0,
                PAGE_CACHE_SIZE - static_cast<size_t>(avail));
    kunmap_atomic(pageaddr);
    flush_dcache_page(page[n]);
    SetPageUptodate(page[n]);
    unlock_page(page[n]);
    if (page[n] != target_page) page_cache_release(page[n]);
  }
out:
  squashfs_cache_put(buffer);
  return res;
}

}  // namespace squashlab
