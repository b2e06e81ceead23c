// SPDX-License-Identifier: GPL-2.0-only
// This file implements the migration of one page cache folio (mm/migrate.c:
// migrate_pages_batch's unmap and move steps, move_to_new_folio,
// migrate_folio, folio_migrate_mapping, folio_migrate_flags) over the
// model's pages: every kernel call a scheduling point, as the preemptible
// task that runs it would be.
#include "model/mm/migrate.h"

#include <cerrno>
#include <cstring>

#include "model/kernel/filemap.h"
#include "model/kernel/kernel.h"
#include "model/kernel/page.h"
#include "model/kernel/slab.h"

namespace squashlab {
namespace {

// folio_mc_copy: the contents, a preemptible copy.
void CopyContents(page* dst, page* src) {
  model_point("folio_mc_copy");
  std::memcpy(page_address(dst), page_address(src), PAGE_SIZE);
}

// folio_migrate_flags: the flags the model has (PG_error in 6.1 only:
// 6.12 has none), PG_uptodate through folio_mark_uptodate.
void CopyFlags(page* dst, page* src) {
  if (Kernel::Current().config().mm_era == MmEra::k6_1 && PageError(src))
    SetPageError(dst);
  if (PageUptodate(src)) SetPageUptodate(dst);
  if (PageReadahead(src)) SetPageReadahead(dst);
}

}  // namespace

int migrate_cached_folio(address_space* mapping, pgoff_t index,
                         MigrateOrder order) {
  // isolate_migratepages_block: folio_try_get, then off the LRU.
  page* src = find_get_page(mapping, index);
  if (src == nullptr) return -ENOENT;
  // migrate_folio_unmap: the destination first (compaction_alloc), then
  // folio_trylock(src): MIGRATE_ASYNC never waits for a locked folio.
  page* dst = alloc_page(GFP_KERNEL);
  int rc = -EAGAIN;
  if (!trylock_page(src)) {
    put_page(dst);
    put_page(src);
    return rc;
  }
  const bool dst_locked = trylock_page(dst);  // nobody else knows it
  // A folio truncated or reclaimed since the lookup has no mapping to
  // migrate in; the model leaves it (the kernel would migrate it bare).
  if (dst_locked && src->mapping == mapping &&
      page_count(src) == 2) {  // __migrate_folio: folio_expected_ref_count
                               // + 1, the cache's and the isolation's
    if (order == MigrateOrder::kCopyFirst) {
      CopyContents(dst, src);
      rc = folio_migrate_mapping(dst, src, 0);
      if (rc == 0) CopyFlags(dst, src);
    } else {
      rc = folio_migrate_mapping(dst, src, 0);
      if (rc == 0) {
        CopyContents(dst, src);
        CopyFlags(dst, src);
      }
    }
  }
  // move_to_new_folio: a page cache folio leaves its mapping for good
  // (under its lock, the cache's reference already gone).
  if (rc == 0) src->mapping = nullptr;
  // migrate_folio_move (or the undo on failure): the new folio unlocked and
  // the allocation's reference dropped (the cache holds its own), then the
  // old one unlocked and put (migrate_folio_done: freed on success).
  if (dst_locked) unlock_page(dst);
  put_page(dst);
  unlock_page(src);
  put_page(src);
  return rc;
}

}  // namespace squashlab
