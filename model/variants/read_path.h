// SPDX-License-Identifier: GPL-2.0-only
// This file implements ReadPathOps, the one ops table behind which every
// read-path variant lives (one small file each, ending in its const table),
// the registry of all variants, and the parts of fs/squashfs/file.c the
// 3.13-era variants share: squashfs_readpage, squashfs_copy_cache, the
// fragment and sparse cases.
#ifndef SQUASHLAB_MODEL_VARIANTS_READ_PATH_H_
#define SQUASHLAB_MODEL_VARIANTS_READ_PATH_H_

#include <string>
#include <vector>

#include "model/kernel/kernel.h"
#include "model/variants/squashfs.h"

namespace squashlab {

struct page;
struct squashfs_cache_entry;

struct ReadPathOps {
  const char* name;
  const char* summary;
  // file.c's squashfs_readpage hands a full (non-sparse) block here. The
  // variant returns 0 once it owns target_page (it will be unlocked, by the
  // variant, now or later), or an error (the caller marks the page).
  int (*readpage_block)(page* target_page, uint64_t block, int bsize);
  // Optional a_ops->readpages (3.13 MM): `pages` are not in the page cache
  // yet, each holds the MM's reference; pages left in the vector are
  // released by the MM afterwards.
  int (*readpages)(file* filp, address_space* mapping,
                   std::vector<page*>* pages);
  // Optional ->readahead (mainline): rac->pages are in the page cache,
  // locked; the variant takes the pages it reads out of rac->pages (with
  // the MM's reference) and must unlock every one (model/kernel/fs.h).
  void (*readahead)(readahead_control* rac);
  // Optional replacement of a_ops->readpage (mainline's read_folio).
  int (*readpage)(file* filp, page* p);
  // Whose MM drives the variant: the kernel it was written for.
  MmEra mm = MmEra::k3_13;
};

// All variants, in table order; nullptr when `name` is unknown.
const std::vector<const ReadPathOps*>& AllReadPaths();
// Finds a variant of the table or one registered by a test.
const ReadPathOps* FindReadPath(const std::string& name);
// A read path only a test knows (e.g. a variant's copy with a planted bug):
// found by FindReadPath, never listed by AllReadPaths. REQUIRES: called
// before any run (not thread-safe).
void RegisterTestReadPath(const ReadPathOps* ops);

// The address_space_operations a squashfs inode of variant `ops` gets when
// it is created (squashfs_iget): ->readpage is file.c's squashfs_readpage
// unless the variant replaces it; ->readpages and ->readahead are the
// variant's own (or none).
address_space_operations squashfs_aops(const ReadPathOps* ops);

// fs/squashfs/file.c (3.13).
int squashfs_readpage(file* filp, page* p);
void squashfs_copy_cache(page* p, squashfs_cache_entry* buffer, int bytes,
                         int offset);
int squashfs_readpage_fragment(page* p);
int squashfs_readpage_sparse(page* p, int index, int file_end);

extern const ReadPathOps kSync313;
extern const ReadPathOps kFileCache313;
extern const ReadPathOps kAsync2013;
extern const ReadPathOps kAsyncFixed;
extern const ReadPathOps kReadpagesCache;
extern const ReadPathOps kReadaheadMainline;

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_VARIANTS_READ_PATH_H_
