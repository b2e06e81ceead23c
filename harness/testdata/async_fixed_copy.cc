// SPDX-License-Identifier: GPL-2.0-only
// This file implements a copy of model/variants/async_fixed.cc for
// //harness:kasan_planted_test, built twice: unchanged (PLANT_UAF=0,
// read path "async-fixed-copy") and with one planted use-after-free of
// its kmalloc'd request (PLANT_UAF=1, "async-fixed-planted"). Neither
// copy carries any annotation; both are compiled as the variants are
// (KASAN_COPTS), so the test shows what the compiler-inserted checks find.
#include <algorithm>
#include <cstring>

#include "model/kernel/buffer_head.h"
#include "model/kernel/filemap.h"
#include "model/kernel/kernel.h"
#include "model/kernel/page.h"
#include "model/kernel/slab.h"
#include "model/kernel/workqueue.h"
#include "model/variants/cache.h"
#include "model/variants/decompressor.h"
#include "model/variants/file_direct.h"
#include "model/variants/page_actor.h"
#include "model/variants/read_path.h"

namespace squashlab {
namespace {

[[maybe_unused]] volatile int g_last_length;

struct squashfs_async_req {
  work_struct work;  // first: container_of is a cast
  super_block* sb;
  uint64_t index;
  int length;  // the size word
  int pages;
  struct page** page;
  squashfs_page_actor* actor;
};

void squashfs_async_req_work(work_struct* work) {
  auto* req = reinterpret_cast<squashfs_async_req*>(work);
  int i, res = squashfs_read_data(req->sb, req->index, req->length, nullptr,
                                  req->actor);
  if (res >= 0) {
    int bytes = res % static_cast<int>(PAGE_CACHE_SIZE);
    if (bytes) {
      char* pageaddr =
          static_cast<char*>(kmap_atomic(req->page[req->pages - 1]));
      std::memset(pageaddr + bytes, 0,
                  PAGE_CACHE_SIZE - static_cast<size_t>(bytes));
      kunmap_atomic(pageaddr);
    }
  }
  for (i = 0; i < req->pages; i++) {
    flush_dcache_page(req->page[i]);
    if (res >= 0)
      SetPageUptodate(req->page[i]);
    else
      SetPageError(req->page[i]);
    unlock_page(req->page[i]);
    page_cache_release(req->page[i]);  // the request's reference, target too
  }
  kfree(req->actor);
  kfree(req->page);
  kfree(req);
#if PLANT_UAF
  // The planted bug: a statistic updated through the request it just
  // freed. Plain C++, no annotation: only the compiler's checks see it.
  g_last_length = req->length;
#endif
}

int squashfs_readpage_block(page* target_page, uint64_t block, int bsize) {
  inode* ino = mapping_host(target_page->mapping);
  squashfs_sb_info* msblk = SQUASHFS_SB(ino->i_sb);
  int file_end = static_cast<int>((i_size_read(ino) - 1) >> PAGE_CACHE_SHIFT);
  int mask = (1 << (msblk->block_log - PAGE_CACHE_SHIFT)) - 1;
  int start_index = static_cast<int>(target_page->index) & ~mask;
  int end_index = std::min(start_index | mask, file_end);
  int i, pages = end_index - start_index + 1, missing_pages = 0, res;
  auto** page = static_cast<struct page**>(
      kmalloc(sizeof(void*) * static_cast<size_t>(pages), GFP_KERNEL));

  missing_pages =
      squashfs_grab_block_pages(target_page, start_index, pages, page);
  if (missing_pages) {
    // The synchronous cache fallback of 3.13, unchanged.
    res = squashfs_read_cache(target_page, block, bsize, pages, page);
    if (res < 0) {
      for (i = 0; i < pages; i++) {
        if (page[i] == nullptr || page[i] == target_page) continue;
        SetPageError(page[i]);
        unlock_page(page[i]);
        page_cache_release(page[i]);
      }
    }
    kfree(page);
    return res;
  }

  auto* req = static_cast<squashfs_async_req*>(
      kmalloc(sizeof(squashfs_async_req), GFP_KERNEL));
  get_page(target_page);  // the request owns a reference to every page
  req->sb = ino->i_sb;
  req->index = block;
  req->length = bsize;
  req->pages = pages;
  req->page = page;
  req->actor = squashfs_page_actor_init_special(page, pages, target_page, 0);
  INIT_WORK(&req->work, squashfs_async_req_work);
  // Start the I/O now (readahead of the device blocks), decode later.
  {
    int offset =
        static_cast<int>(block & static_cast<uint64_t>(msblk->devblksize - 1));
    int len = SQUASHFS_COMPRESSED_SIZE_BLOCK(static_cast<uint32_t>(bsize));
    uint64_t cur = block >> msblk->devblksize_log2;
    for (int bytes = -offset; bytes < len; bytes += msblk->devblksize, cur++) {
      buffer_head* bh = sb_getblk(ino->i_sb, cur);
      ll_rw_block(READ, 1, &bh);
      put_bh(bh);
    }
  }
  schedule_work(&req->work);
  return 0;
}

}  // namespace

#if PLANT_UAF
extern const ReadPathOps kAsyncFixedPlanted;
const ReadPathOps kAsyncFixedPlanted = {
    "async-fixed-planted",
    "async-fixed with a use-after-free of its request planted by a test",
#else
extern const ReadPathOps kAsyncFixedCopy;
const ReadPathOps kAsyncFixedCopy = {
    "async-fixed-copy",
    "an unchanged copy of async-fixed, compiled like the planted one",
#endif
    squashfs_readpage_block,
    nullptr,
    nullptr,
    nullptr,
};

}  // namespace squashlab
