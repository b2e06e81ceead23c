// SPDX-License-Identifier: GPL-2.0-only
// This file implements POSIX_FADV_DONTNEED (mm/fadvise.c, generic_fadvise)
// over the model's invalidate_mapping_pages, which skips what
// mapping_evict_folio skips (locked, dirty, referenced beyond the cache).
#include "model/mm/fadvise.h"

#include "model/kernel/filemap.h"
#include "model/kernel/fs.h"
#include "model/kernel/kernel.h"

namespace squashlab {

unsigned long fadvise_dontneed(file* filp, uint64_t offset, uint64_t len) {
  constexpr uint64_t kPageSize = 4096;
  const uint64_t size = i_size_read(filp->f_inode);
  // len 0 (or past the end): to the end of the file (endbyte = LLONG_MAX).
  const uint64_t endbyte =
      len == 0 || offset + len < offset ? ~uint64_t{0} >> 1 : offset + len - 1;
  Kernel::Current().Point("fadvise_dontneed", offset / kPageSize);
  const uint64_t start_index = (offset + kPageSize - 1) / kPageSize;
  uint64_t end_index = endbyte / kPageSize;
  // A partial last page is kept, unless it holds the file's last byte.
  if ((endbyte & (kPageSize - 1)) != kPageSize - 1 && endbyte != size - 1) {
    if (end_index == 0) return 0;
    end_index--;
  }
  if (end_index < start_index) return 0;
  return invalidate_mapping_pages(filp->f_mapping, start_index, end_index);
}

}  // namespace squashlab
