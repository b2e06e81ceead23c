// SPDX-License-Identifier: GPL-2.0-only
// This file implements read_mapping_page as 6.x runs it for readlink
// (fs/namei.c page_get_link -> read_mapping_folio -> mm/filemap.c
// do_read_cache_folio): page `index` of the mapping from the page cache,
// read through ->read_folio when absent or !uptodate, no readahead. The
// page comes back uptodate with a reference, or null with the error.
#ifndef SQUASHLAB_MODEL_MM_READ_MAPPING_H_
#define SQUASHLAB_MODEL_MM_READ_MAPPING_H_

#include "model/kernel/fs.h"

namespace squashlab {

page* read_mapping_page(address_space* mapping, pgoff_t index, int* err);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_MM_READ_MAPPING_H_
