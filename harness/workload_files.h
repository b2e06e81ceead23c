// SPDX-License-Identifier: GPL-2.0-only
// This file declares the choice of the files a scenario's workloads read,
// made once per scenario from the files' shapes: the largest, one whose
// tail shares a fragment block, two whose tails meet in one, and a few of
// every shape for `every`.
#ifndef SQUASHLAB_HARNESS_WORKLOAD_FILES_H_
#define SQUASHLAB_HARNESS_WORKLOAD_FILES_H_

#include <string>
#include <vector>

#include "harness/image_model.h"

namespace squashlab {

// Pointers into the ImageModel they were chosen from (which must outlive
// them). The image has at least one regular file.
struct WorkloadFiles {
  const FileModel* largest = nullptr;
  // A file of whole blocks and a fragment tail, preferably one whose
  // fragment block holds another file's bytes after its tail (a read past
  // the tail shows them); else the second largest.
  const FileModel* tail = nullptr;
  // Two different files whose tails share a fragment block (else any two
  // with tails, else the two smallest).
  const FileModel* fragment_a = nullptr;
  const FileModel* fragment_b = nullptr;
  // `every`: all files of a small image; of a large one the first four of
  // each shape (sparse, uncompressed, compressed blocks, a tail, a tail
  // another file's follows), at most 32.
  std::vector<const FileModel*> every;
  // `readlink`: the image's symlinks, at most 8.
  std::vector<const FileModel*> symlinks;
  // `dontneed`: the file whose last chunk (a data block or a fragment
  // tail) spans the most pages and ends mid-page, the page its reader
  // zeroes past EOF (none: no file's last chunk is both).
  const FileModel* short_end = nullptr;

  // The files `workload` reads, by path (the real mount looks up these).
  std::vector<std::string> Names(const std::string& workload) const;
};

WorkloadFiles ChooseWorkloadFiles(const ImageModel& image);

}  // namespace squashlab

#endif  // SQUASHLAB_HARNESS_WORKLOAD_FILES_H_
