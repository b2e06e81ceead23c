// SPDX-License-Identifier: GPL-2.0-only
// This file implements address_space, the page cache of one file, and the
// filemap calls over it: find_get_page, find_lock_page,
// grab_cache_page_nowait, add_to_page_cache_lru (-EEXIST),
// delete_from_page_cache, and reclaim of clean unlocked pages.
#ifndef SQUASHLAB_MODEL_KERNEL_FILEMAP_H_
#define SQUASHLAB_MODEL_KERNEL_FILEMAP_H_

#include <cerrno>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "model/kernel/slab.h"

namespace squashlab {

struct inode;
struct address_space_operations;

struct page;
using pgoff_t = unsigned long;

// EIO, ENOMEM, EEXIST, EINVAL: the C library's <cerrno> values, which are
// the kernel's.

struct address_space {
  std::map<pgoff_t, page*> page_tree;  // guarded by the kernel's tree_lock
  unsigned long nrpages = 0;
  unsigned long debug_addr = 0;  // what dump_page prints as mapping:
  std::string name;
  inode* host = nullptr;                            // the file's inode
  const address_space_operations* a_ops = nullptr;  // set by the file system
  // The vmas mapping it: the size of i_mmap, which mmap links a vma into
  // and munmap unlinks it from (6.12 mm/vma.c:136, 150).
  unsigned long i_mmap_count = 0;
};

// Registers a new, empty mapping with the current kernel.
address_space* new_address_space(std::string name);

// mapping_mapped (6.12 include/linux/fs.h:581): whether any vma maps it.
bool mapping_mapped(const address_space* mapping);

// A referenced page at index, or nullptr.
page* find_get_page(address_space* mapping, pgoff_t index);
// The data oracle's look at the page cache (no kernel API: no scheduling
// point, no cost, no reference): whether the uptodate page at index has a
// nonzero byte at or after offset `from`; *at and *byte say the first.
// False when there is no such page or it is not uptodate.
bool OracleNonzeroTail(address_space* mapping, pgoff_t index, size_t from,
                       size_t* at, unsigned char* byte);
// Whether index holds a page: radix_tree_lookup under rcu_read_lock, as
// 3.13's readahead probes the tree (no reference, no scheduling point).
bool page_cache_has(address_space* mapping, pgoff_t index);
// A referenced, locked page at index still in mapping, or nullptr. Sleeps.
page* find_lock_page(address_space* mapping, pgoff_t index);
// A locked, referenced page at index: found and trylocked, or newly added;
// nullptr when the page is locked by someone else or cannot be added.
page* grab_cache_page_nowait(address_space* mapping, pgoff_t index);
// Locks p and inserts it (the cache takes a reference, PG_lru is set).
// -EEXIST when index is taken. REQUIRES: p not locked, not in a mapping.
int add_to_page_cache_lru(page* p, address_space* mapping, pgoff_t index,
                          gfp_t gfp);
// REQUIRES: p locked. Removes it and drops the cache's reference.
void delete_from_page_cache(page* p);
// Page migration's replacement of `old` by `newp` in old's mapping
// (mm/migrate.c folio_migrate_mapping / __folio_migrate_mapping): under the
// mapping's lock, freezes old's count at 2 + extra_count (the page cache's
// reference, the migration's own, and the caller's extra ones) or returns
// -EAGAIN when someone else holds a reference; else newp takes old's
// mapping and index, and the cache's reference, and stands in its slot, and
// old keeps the migration's references only. One atomic step.
// REQUIRES: both locked; newp in no mapping.
int folio_migrate_mapping(page* newp, page* old, int extra_count);
// The kernel's mappings, for actors that walk every page cache (no kernel
// API: no scheduling point).
std::vector<address_space*> page_cache_mappings();
// The indexes cached in mapping (no kernel API: no scheduling point).
std::vector<pgoff_t> page_cache_indexes(address_space* mapping);
// Memory pressure: evicts clean, unlocked, unreferenced pages of mapping in
// [start, end]; returns how many went.
unsigned long invalidate_mapping_pages(address_space* mapping, pgoff_t start,
                                       pgoff_t end);
// Memory pressure over every mapping of the kernel, at most nr pages.
unsigned long shrink_page_cache(unsigned long nr);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_KERNEL_FILEMAP_H_
