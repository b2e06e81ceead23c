// SPDX-License-Identifier: GPL-2.0-only
// This file implements generic_file_read as 3.13's do_generic_file_read
// does it: find_get_page; on a miss synchronous readahead, then (still
// missing) add_to_page_cache_lru + readpage; on a PG_readahead page
// asynchronous readahead; lock_page to wait for a page under I/O; a page
// still !uptodate after its readpage is an I/O error (EIO); copy out.
#ifndef SQUASHLAB_MODEL_MM_FILEMAP_READ_H_
#define SQUASHLAB_MODEL_MM_FILEMAP_READ_H_

#include <cstddef>
#include <cstdint>

#include "model/kernel/fs.h"

namespace squashlab {

// Reads up to count bytes at *ppos into buf; returns the count (short only
// at end of file) or -EIO, and advances *ppos.
long generic_file_read(file* filp, char* buf, size_t count, int64_t* ppos);

// Opens `ino` with the default readahead window (ra_pages, in pages).
file* open_file(inode* ino, unsigned ra_pages = 32);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_MM_FILEMAP_READ_H_
