// SPDX-License-Identifier: GPL-2.0-only
// This file implements the choice of MM for a read (file_read.h).
#include "model/mm/file_read.h"

#include "model/kernel/kernel.h"
#include "model/mm/filemap_read.h"
#include "model/mm/filemap_read_6x.h"

namespace squashlab {

long mm_file_read(file* filp, char* buf, size_t count, int64_t* ppos) {
  if (Kernel::Current().config().mm_era == MmEra::k3_13)
    return generic_file_read(filp, buf, count, ppos);
  return filemap_read(filp, buf, count, ppos);
}

}  // namespace squashlab
