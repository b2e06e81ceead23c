// SPDX-License-Identifier: GPL-2.0-only
// This file implements the read(2) a workload issues: it goes through the MM
// of the kernel under test (KernelConfig::mm_era): 3.13's
// do_generic_file_read (filemap_read.h) or 6.x's filemap_read
// (filemap_read_6x.h).
#ifndef SQUASHLAB_MODEL_MM_FILE_READ_H_
#define SQUASHLAB_MODEL_MM_FILE_READ_H_

#include <cstddef>
#include <cstdint>

#include "model/kernel/fs.h"

namespace squashlab {

// Reads up to count bytes at *ppos into buf; returns the count (short only
// at end of file or after an error) or -EIO, and advances *ppos.
long mm_file_read(file* filp, char* buf, size_t count, int64_t* ppos);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_MM_FILE_READ_H_
