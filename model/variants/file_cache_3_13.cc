// SPDX-License-Identifier: GPL-2.0-only
// This file implements `file-cache-3.13`: mainline 3.13 with
// SQUASHFS_FILE_CACHE (fs/squashfs/file_cache.c): every block is decoded
// into the one-entry read_page cache and copied into the pages.
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

}  // namespace

const ReadPathOps kFileCache313 = {
    "file-cache-3.13",
    "3.13 FILE_CACHE: decode into the squashfs cache, copy into the pages",
    squashfs_readpage_block,
    nullptr,
    nullptr,
    nullptr,
};

}  // namespace squashlab
