// SPDX-License-Identifier: GPL-2.0-only
// This file implements `readpages-cache`, the design Minchan Kim proposed
// in the thread (the 2013 thread): a squashfs_readpages that works from the
// squashfs cache and copies into exactly the pages the MM layer passed —
// adding each to the page cache itself, never grabbing others, never
// freeing the MM's pages — so the PG_readahead mark the MM set survives
// and on-demand readahead keeps working. readpage is FILE_CACHE's.
#include <algorithm>
#include <cstring>

#include "model/kernel/filemap.h"
#include "model/kernel/kernel.h"
#include "model/kernel/page.h"
#include "model/variants/cache.h"
#include "model/variants/read_path.h"

namespace squashlab {
namespace {

int squashfs_readpage_block(page* p, uint64_t block, int bsize) {
  inode* i = mapping_host(p->mapping);
  squashfs_cache_entry* buffer = squashfs_get_datablock(i->i_sb, block, bsize);
  int res = buffer->error;
  if (!res) squashfs_copy_cache(p, buffer, buffer->length, 0);
  squashfs_cache_put(buffer);
  return res;
}

// The cache entry holding page index `index` of the file (nullptr with
// *error 0 for a sparse block), referenced.
squashfs_cache_entry* get_block_of(inode* ino, unsigned long index, int* offset,
                                   int* error) {
  squashfs_sb_info* msblk = SQUASHFS_SB(ino->i_sb);
  int shift = msblk->block_log - PAGE_CACHE_SHIFT;
  int bindex = static_cast<int>(index >> shift);
  int file_end = static_cast<int>(i_size_read(ino) >> msblk->block_log);
  *offset =
      static_cast<int>((index & ((1UL << shift) - 1)) << PAGE_CACHE_SHIFT);
  *error = 0;
  squashfs_cache_entry* e;
  if (bindex >= file_end &&
      squashfs_i(ino)->fragment_block != SQUASHFS_INVALID_BLK) {
    e = squashfs_get_fragment(ino->i_sb, squashfs_i(ino)->fragment_block,
                              static_cast<int>(squashfs_i(ino)->fragment_size));
    *offset += static_cast<int>(squashfs_i(ino)->fragment_offset);
  } else {
    uint64_t block = 0;
    int bsize = read_blocklist(ino, bindex, &block);
    if (bsize < 0) {
      *error = -EIO;
      return nullptr;
    }
    if (bsize == 0) return nullptr;
    e = squashfs_get_datablock(ino->i_sb, block, bsize);
  }
  if (e->error) *error = e->error;
  return e;
}

int squashfs_readpages(file*, address_space* mapping,
                       std::vector<page*>* pages) {
  inode* ino = mapping_host(mapping);
  uint64_t isize = i_size_read(ino);
  std::vector<page*> list = std::move(*pages);
  pages->clear();
  for (page* p : list) {
    if (add_to_page_cache_lru(p, mapping, p->index, GFP_KERNEL)) {
      pages->push_back(p);  // raced with another reader: the MM frees it
      continue;
    }
    int offset = 0, error = 0;
    squashfs_cache_entry* e = get_block_of(ino, p->index, &offset, &error);
    uint64_t pos = static_cast<uint64_t>(p->index) << PAGE_CACHE_SHIFT;
    int avail = static_cast<int>(
        std::min<uint64_t>(PAGE_CACHE_SIZE, isize > pos ? isize - pos : 0));
    if (!error) {
      char* pageaddr = static_cast<char*>(kmap_atomic(p));
      int got = squashfs_copy_data(pageaddr, e, offset, avail);
      std::memset(pageaddr + got, 0,
                  PAGE_CACHE_SIZE - static_cast<size_t>(got));
      kunmap_atomic(pageaddr);
      flush_dcache_page(p);
      SetPageUptodate(p);
    } else {
      SetPageError(p);
    }
    if (e) squashfs_cache_put(e);
    unlock_page(p);
    page_cache_release(p);  // the MM's reference; the page cache keeps one
  }
  return 0;
}

}  // namespace

const ReadPathOps kReadpagesCache = {
    "readpages-cache",
    "Minchan's proposal: readpages copying from the cache into the MM's pages",
    squashfs_readpage_block,
    squashfs_readpages,
    nullptr,
    nullptr,
};

}  // namespace squashlab
