// SPDX-License-Identifier: GPL-2.0-only
// This file implements the block list lookup and the 3.13 file.c read
// path shared by the variants: squashfs_readpage dispatching a page to its
// block (through the variant's readpage_block), its fragment, or a sparse
// block, and squashfs_copy_cache pushing a decoded block into every page
// of the block it can grab.
#include <algorithm>
#include <cstring>

#include "model/kernel/filemap.h"
#include "model/kernel/kernel.h"
#include "model/kernel/page.h"
#include "model/variants/cache.h"
#include "model/variants/read_path.h"

namespace squashlab {

int read_blocklist(inode* i, int index, uint64_t* block) {
  if (index < 0 ||
      static_cast<size_t>(index) >= squashfs_i(i)->block_size_word.size())
    return -EIO;
  *block = squashfs_i(i)->block_start[static_cast<size_t>(index)];
  return static_cast<int>(
      squashfs_i(i)->block_size_word[static_cast<size_t>(index)]);
}

void squashfs_copy_cache(page* p, squashfs_cache_entry* buffer, int bytes,
                         int offset) {
  inode* ino = mapping_host(p->mapping);
  squashfs_sb_info* msblk = SQUASHFS_SB(ino->i_sb);
  int mask = (1 << (msblk->block_log - PAGE_CACHE_SHIFT)) - 1;
  int start_index = static_cast<int>(p->index) & ~mask,
      end_index = start_index | mask;
  address_space* mapping = p->mapping;
  unsigned long target_index = p->index;

  // Loop copying datablock into pages. As the datablock likely covers many
  // PAGE_CACHE_SIZE pages (default block size is 128 KiB) explicitly grab
  // the pages from the page cache, except for the page that we've been
  // called to fill.
  for (int i = start_index; i <= end_index && bytes > 0; i++,
           bytes -= static_cast<int>(PAGE_CACHE_SIZE),
           offset += static_cast<int>(PAGE_CACHE_SIZE)) {
    int avail = buffer ? std::min(bytes, static_cast<int>(PAGE_CACHE_SIZE)) : 0;
    page* push_page =
        (static_cast<unsigned long>(i) == target_index)
            ? p
            : grab_cache_page_nowait(mapping, static_cast<pgoff_t>(i));
    if (!push_page) continue;
    if (!PageUptodate(push_page)) {
      char* pageaddr = static_cast<char*>(kmap_atomic(push_page));
      squashfs_copy_data(pageaddr, buffer, offset, avail);
      std::memset(pageaddr + avail, 0,
                  PAGE_CACHE_SIZE - static_cast<size_t>(avail));
      kunmap_atomic(pageaddr);
      flush_dcache_page(push_page);
      SetPageUptodate(push_page);
    }
    unlock_page(push_page);
    if (static_cast<unsigned long>(i) != target_index)
      page_cache_release(push_page);
  }
}

int squashfs_readpage_fragment(page* p) {
  inode* ino = mapping_host(p->mapping);
  squashfs_sb_info* msblk = SQUASHFS_SB(ino->i_sb);
  squashfs_cache_entry* buffer =
      squashfs_get_fragment(ino->i_sb, squashfs_i(ino)->fragment_block,
                            static_cast<int>(squashfs_i(ino)->fragment_size));
  int res = buffer->error;
  if (!res)
    squashfs_copy_cache(
        p, buffer, static_cast<int>(i_size_read(ino) & (msblk->block_size - 1)),
        static_cast<int>(squashfs_i(ino)->fragment_offset));
  squashfs_cache_put(buffer);
  return res;
}

int squashfs_readpage_sparse(page* p, int index, int file_end) {
  inode* ino = mapping_host(p->mapping);
  squashfs_sb_info* msblk = SQUASHFS_SB(ino->i_sb);
  int bytes = index == file_end
                  ? static_cast<int>(i_size_read(ino) & (msblk->block_size - 1))
                  : msblk->block_size;
  squashfs_copy_cache(p, nullptr, bytes, 0);
  return 0;
}

int squashfs_readpage(file*, page* p) {
  inode* ino = mapping_host(p->mapping);
  squashfs_sb_info* msblk = SQUASHFS_SB(ino->i_sb);
  int index =
      static_cast<int>(p->index >> (msblk->block_log - PAGE_CACHE_SHIFT));
  int file_end = static_cast<int>(i_size_read(ino) >> msblk->block_log);
  int res = 0;
  void* pageaddr;

  if (p->index >=
      ((i_size_read(ino) + PAGE_CACHE_SIZE - 1) >> PAGE_CACHE_SHIFT))
    goto out;

  if (index < file_end ||
      squashfs_i(ino)->fragment_block == SQUASHFS_INVALID_BLK) {
    uint64_t block = 0;
    int bsize = read_blocklist(ino, index, &block);
    if (bsize < 0) goto error_out;
    if (bsize == 0)
      res = squashfs_readpage_sparse(p, index, file_end);
    else
      res = msblk->read_path->readpage_block(p, block, bsize);
  } else {
    res = squashfs_readpage_fragment(p);
  }
  if (!res) return 0;

error_out:
  SetPageError(p);
out:
  pageaddr = kmap_atomic(p);
  std::memset(pageaddr, 0, PAGE_CACHE_SIZE);
  kunmap_atomic(pageaddr);
  flush_dcache_page(p);
  if (!PageError(p)) SetPageUptodate(p);
  unlock_page(p);
  return 0;
}

address_space_operations squashfs_aops(const ReadPathOps* ops) {
  address_space_operations a;
  a.readpage = ops->readpage ? ops->readpage : squashfs_readpage;
  a.readpages = ops->readpages;
  a.readahead = ops->readahead;
  return a;
}

const std::vector<const ReadPathOps*>& AllReadPaths() {
  static const std::vector<const ReadPathOps*> kAll = {
      &kSync313,    &kFileCache313,   &kAsync2013,
      &kAsyncFixed, &kReadpagesCache, &kReadaheadMainline};
  return kAll;
}

namespace {
std::vector<const ReadPathOps*>& Extra() {
  static auto* extra = new std::vector<const ReadPathOps*>;
  return *extra;
}
}  // namespace

void RegisterTestReadPath(const ReadPathOps* ops) { Extra().push_back(ops); }

const ReadPathOps* FindReadPath(const std::string& name) {
  for (const auto* v : AllReadPaths())
    if (name == v->name) return v;
  for (const auto* v : Extra())
    if (name == v->name) return v;
  return nullptr;
}

}  // namespace squashlab
