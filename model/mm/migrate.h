// SPDX-License-Identifier: GPL-2.0-only
// This file implements the migration of a page cache folio as mm/migrate.c
// does it for a mapping with no ->migrate_folio of its own (a file system
// that leaves it unset, and a bare inode's empty_aops:
// fallback_migrate_folio -> migrate_folio), in MIGRATE_ASYNC mode, as
// compaction runs it: the folio isolated (a reference), trylocked (a locked
// one is skipped), its references checked (anyone else's: -EAGAIN), a new
// folio allocated and locked, the mapping's slot handed to it, its
// contents and flags copied, both unlocked, the old one dropped.
#ifndef SQUASHLAB_MODEL_MM_MIGRATE_H_
#define SQUASHLAB_MODEL_MM_MIGRATE_H_

#include <cstdint>

namespace squashlab {

struct address_space;
using pgoff_t = unsigned long;

// Mainline has done the steps in two orders; the window between the
// slot's replacement and the copy of the flags (the new folio in the
// mapping, locked and !uptodate) is in both.
enum class MigrateOrder {
  // 6.12's __migrate_folio: folio_mc_copy, then __folio_migrate_mapping,
  // then folio_migrate_flags (the new folio enters the mapping with its
  // contents, without its flags).
  kCopyFirst,
  // 6.1's migrate_folio_extra (to 6.10): folio_migrate_mapping, then
  // folio_migrate_copy (contents, then flags): the new folio enters the
  // mapping with neither.
  kMappingFirst,
};

// Migrates the folio at `index` of `mapping`. 0 when migrated; -ENOENT when
// nothing is cached there; -EAGAIN when the folio is locked, or someone
// else holds a reference to it, or it left the mapping meanwhile.
int migrate_cached_folio(address_space* mapping, pgoff_t index,
                         MigrateOrder order);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_MM_MIGRATE_H_
