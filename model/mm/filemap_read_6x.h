// SPDX-License-Identifier: GPL-2.0-only
// This file implements filemap_read as 6.1 and 6.12 do it (mm/filemap.c):
// filemap_get_pages takes a batch of cached pages (up to the era's
// PAGEVEC_SIZE, ending at the first page that is !uptodate or marked
// PG_readahead); an empty batch starts synchronous readahead and, the page
// still missing, filemap_create_folio adds one and reads it through
// ->read_folio; a PG_readahead page starts asynchronous readahead; a page
// still !uptodate goes through filemap_update_page: a page locked by
// someone (the usual case: readahead in flight) is waited for and looked up
// again; one it locks and finds !uptodate is read again through
// ->read_folio, and a page still !uptodate after that read is EIO (the
// window shrinks to a quarter, shrink_readahead_size_eio). prev_pos is the
// position after the last byte copied.
#ifndef SQUASHLAB_MODEL_MM_FILEMAP_READ_6X_H_
#define SQUASHLAB_MODEL_MM_FILEMAP_READ_6X_H_

#include <cstddef>
#include <cstdint>

#include "model/kernel/fs.h"

namespace squashlab {

// Reads up to count bytes at *ppos into buf with the MM of
// Kernel::Current().config().mm_era (6.1 or 6.12); returns the count (short
// at end of file or after an error past the first byte) or -EIO, and
// advances *ppos.
long filemap_read(file* filp, char* buf, size_t count, int64_t* ppos);

// mm/filemap.c filemap_read_folio: p locked and !uptodate; ->read_folio
// unlocks it when its read ends, this waits for that. 0 when p came out
// uptodate, else -EIO with the window shrunk to a quarter
// (shrink_readahead_size_eio) or ->read_folio's own error.
int filemap_read_folio(file* filp, page* p);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_MM_FILEMAP_READ_6X_H_
