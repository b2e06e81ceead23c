// SPDX-License-Identifier: GPL-2.0-only
// This file implements ScanImage: touch every part of an image the way a
// user's tools would (every directory, inode, file byte, symlink and xattr),
// stopping at the first error. The hardening tests and the fuzzers use it.
#ifndef SQUASHLAB_READER_FULL_SCAN_H_
#define SQUASHLAB_READER_FULL_SCAN_H_

#include <cstdint>

#include "reader/image.h"

namespace squashlab {

struct ScanLimits {
  uint64_t max_inodes = ~uint64_t{0};  // stop after visiting this many
  uint64_t max_file_bytes =
      ~uint64_t{0};  // read at most this much of each file
  // ... and this much in all: a small valid image can name one huge sparse
  // file thousands of times through hard links.
  uint64_t max_total_bytes = ~uint64_t{0};
};

struct ScanStats {
  uint64_t inodes = 0;
  uint64_t directories = 0;
  uint64_t file_bytes = 0;
  uint64_t xattrs = 0;
  uint64_t checksum = 0;  // of every byte read, to compare two scans
};

// Walks the whole tree from the root. Directory loops are corruption.
Status ScanImage(Image* image, const ScanLimits& limits, ScanStats* stats);

}  // namespace squashlab

#endif  // SQUASHLAB_READER_FULL_SCAN_H_
