// SPDX-License-Identifier: GPL-2.0-only
// This file implements posix_fadvise(POSIX_FADV_DONTNEED) as mm/fadvise.c's
// generic_fadvise does it in Linux 6.1 and 6.12: the byte range rounded in
// to whole pages (a partial first or last page is kept, except the page
// holding the file's last byte), then the clean, unlocked, unmapped pages
// of it dropped from the page cache (mapping_try_invalidate; a page locked
// by a read in flight is skipped). Page-granular reclaim of one page, a
// range or the whole file.
#ifndef SQUASHLAB_MODEL_MM_FADVISE_H_
#define SQUASHLAB_MODEL_MM_FADVISE_H_

#include <cstdint>

namespace squashlab {

struct file;

// Returns the pages dropped. len 0: to the end of the file.
unsigned long fadvise_dontneed(file* filp, uint64_t offset, uint64_t len);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_MM_FADVISE_H_
