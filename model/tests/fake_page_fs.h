// SPDX-License-Identifier: GPL-2.0-only
// This file declares a file system for the MM's tests: its page n holds the
// byte n & 0xff; it records the batches ->readahead gets and the pages
// ->read_folio reads, can leave pages of a batch to the MM (`take`) and can
// fail chosen pages (left !uptodate).
#ifndef SQUASHLAB_MODEL_TESTS_FAKE_PAGE_FS_H_
#define SQUASHLAB_MODEL_TESTS_FAKE_PAGE_FS_H_

#include <cstddef>
#include <set>
#include <utility>
#include <vector>

#include "model/kernel/filemap.h"
#include "model/kernel/fs.h"
#include "model/kernel/kernel.h"
#include "model/kernel/page.h"

namespace squashlab {

struct FakePageFs {
  std::vector<std::pair<unsigned long, size_t>> batches;  // ->readahead
  std::vector<unsigned long> folio_reads;                 // ->read_folio
  size_t take = ~size_t{0};         // pages ->readahead takes per batch
  std::set<unsigned long> failing;  // pages whose read fails
};

// The file system the operations below serve; a test sets it for its run.
extern FakePageFs* g_fake_page_fs;

// ->read_folio: fills the page (unless failing) and unlocks it.
int FakeReadFolio(file* f, page* p);
// The operations, ->readahead and ->read_folio.
extern const address_space_operations kFakePageFsOps;
// A file of `pages` pages whose mapping has kFakePageFsOps.
inode* NewFakeFile(Kernel& k, unsigned long pages);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_TESTS_FAKE_PAGE_FS_H_
