// SPDX-License-Identifier: GPL-2.0-only
// This file implements `async-2013`: the file_direct.c half of the 2013
// asynchronous readpage patch (the 2013 thread), bugs included. The page grab
// and the cache fallback are 3.13's; when every page was grabbed, the block
// goes to squashfs_read_data_async and readpage returns 0 at once: the
// pages, the page array and the actor now belong to the end_io handler and
// the work item. Its return value is ignored, as in the patch.
#include "model/kernel/filemap.h"
#include "model/kernel/kernel.h"
#include "model/kernel/page.h"
#include "model/kernel/slab.h"
#include "model/variants/file_direct.h"
#include "model/variants/page_actor.h"
#include "model/variants/read_path.h"

namespace squashlab {
namespace {

int squashfs_readpage_block(page* target_page, uint64_t block, int bsize) {
  inode* ino = mapping_host(target_page->mapping);
  squashfs_sb_info* msblk = SQUASHFS_SB(ino->i_sb);
  int file_end = static_cast<int>((i_size_read(ino) - 1) >> PAGE_CACHE_SHIFT);
  int mask = (1 << (msblk->block_log - PAGE_CACHE_SHIFT)) - 1;
  int start_index = static_cast<int>(target_page->index) & ~mask;
  int end_index = start_index | mask;
  int i, pages, missing_pages, res = -ENOMEM;
  page** page;
  squashfs_page_actor* actor;

  if (end_index > file_end) end_index = file_end;
  pages = end_index - start_index + 1;

  page = static_cast<struct page**>(
      kmalloc(sizeof(void*) * static_cast<size_t>(pages), GFP_KERNEL));
  actor = squashfs_page_actor_init_special(page, pages, target_page, 0);

  // Try to grab all the pages covered by the Squashfs block.
  missing_pages =
      squashfs_grab_block_pages(target_page, start_index, pages, page);

  if (missing_pages) {
    res = squashfs_read_cache(target_page, block, bsize, pages, page);
    if (res < 0) goto mark_errored;
    goto out;
  }

  // Decompress directly into the page cache buffers.
  squashfs_read_data_async(ino->i_sb, block, bsize, actor);
  return 0;

mark_errored:
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

const ReadPathOps kAsync2013 = {
    "async-2013",
    "the 2013 patch: submit_bh, decompress and unlock from end_io + workqueue",
    squashfs_readpage_block,
    nullptr,
    nullptr,
    nullptr,
};

}  // namespace squashlab
