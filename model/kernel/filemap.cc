// SPDX-License-Identifier: GPL-2.0-only
// This file implements the page cache of a file and its reclaim.
#include "model/kernel/filemap.h"

#include <mutex>
#include <vector>

#include "model/kernel/buffer_head.h"
#include "model/kernel/fault_inject.h"
#include "model/kernel/kernel.h"
#include "model/kernel/kernel_internal.h"
#include "model/kernel/page.h"

namespace squashlab {

address_space* new_address_space(std::string name) {
  Kernel& k = Kernel::Current();
  address_space* m = k.New<address_space>();
  m->name = std::move(name);
  std::lock_guard<RunMutex> l(KernelInternal::TreeLock(k));
  KernelInternal::Mappings(k).push_back(m);
  m->debug_addr =
      0xffff880000000000UL + 0x1000UL * KernelInternal::Mappings(k).size();
  return m;
}

// A lockless look at i_mmap's root, as the kernel's: no scheduling point.
bool mapping_mapped(const address_space* mapping) {
  return mapping->i_mmap_count != 0;
}

bool page_cache_has(address_space* mapping, pgoff_t index) {
  Kernel& k = Kernel::Current();
  std::lock_guard<RunMutex> l(KernelInternal::TreeLock(k));
  return mapping->page_tree.count(index) != 0;
}

bool OracleNonzeroTail(address_space* mapping, pgoff_t index, size_t from,
                       size_t* at, unsigned char* byte) {
  Kernel& k = Kernel::Current();
  std::lock_guard<RunMutex> l(KernelInternal::TreeLock(k));
  auto it = mapping->page_tree.find(index);
  if (it == mapping->page_tree.end()) return false;
  const page* p = it->second;
  if (!(p->flags.load() & (1UL << PG_uptodate)) || p->data == nullptr)
    return false;
  for (size_t i = from; i < PAGE_SIZE; i++) {
    if (p->data[i] != 0) {
      *at = i;
      *byte = static_cast<unsigned char>(p->data[i]);
      return true;
    }
  }
  return false;
}

page* find_get_page(address_space* mapping, pgoff_t index) {
  Kernel& k = Kernel::Current();
  k.CheckPtr(mapping, "find_get_page");
  k.Point("find_get_page", index);
  k.Charge(CostKind::kPageCacheOp, 1);
  std::lock_guard<RunMutex> l(KernelInternal::TreeLock(k));
  auto it = mapping->page_tree.find(index);
  if (it == mapping->page_tree.end()) return nullptr;
  if (it->second->_count.load() <= 0) {
    // page_cache_get_speculative() fails on a page freed while still in
    // the tree (a "Bad page state" page): find_get_page retries forever.
    Task* t = k.current_task();
    k.Bug(Check::kFindGetPageSoftLockup, "BUG: soft lockup in find_get_page",
          "BUG: soft lockup - CPU#" + std::to_string(t ? t->cpu : 0) +
              " stuck for 22s! [" + (t ? t->Comm() : std::string("swapper")) +
              "]\nIP: find_get_page: page_cache_get_speculative() fails "
              "forever on\n" +
              dump_page(it->second) +
              "\n(a page freed while still in the page cache)");
  }
  // A reference on a page the lookup names only by its index: the
  // partial-order reduction cannot tell which page, so it is wide.
  KernelInternal::NoteWideEffect(k);
  it->second->_count.fetch_add(1);
  return it->second;
}

page* find_lock_page(address_space* mapping, pgoff_t index) {
  for (;;) {
    page* p = find_get_page(mapping, index);
    if (p == nullptr) return nullptr;
    lock_page(p);
    if (p->mapping == mapping)
      return p;  // not truncated or reclaimed meanwhile
    unlock_page(p);
    put_page(p);
  }
}

page* grab_cache_page_nowait(address_space* mapping, pgoff_t index) {
  page* p = find_get_page(mapping, index);
  if (p != nullptr) {
    if (trylock_page(p)) return p;
    put_page(p);
    return nullptr;
  }
  // 6.x takes the page with __filemap_get_folio(FGP_NOWAIT): no direct
  // reclaim, so it never sleeps (mm/filemap.c). 3.13 allocated with the
  // mapping's mask less __GFP_FS and added with GFP_NOFS: both may sleep.
  const bool nowait = Kernel::Current().config().mm_era != MmEra::k3_13;
  // filemap_alloc_folio -> __alloc_pages: a fault plan may fail it.
  if (should_fail_alloc_page(nowait ? GFP_NOWAIT : GFP_NOFS, 0)) return nullptr;
  p = nowait ? alloc_page(GFP_NOWAIT) : page_cache_alloc(mapping);
  if (add_to_page_cache_lru(p, mapping, index,
                            nowait ? GFP_NOWAIT : GFP_NOFS) != 0) {
    put_page(p);
    return nullptr;
  }
  return p;
}

int add_to_page_cache_lru(page* p, address_space* mapping, pgoff_t index,
                          gfp_t gfp) {
  Kernel& k = Kernel::Current();
  if (gfp & __GFP_WAIT) k.MightSleep("add_to_page_cache_lru");
  CheckPage(p, "add_to_page_cache_lru");
  k.CheckPtr(mapping, "add_to_page_cache_lru");
  k.Point("add_to_page_cache_lru", index);
  k.Charge(CostKind::kPageCacheOp, 1);
  if (p->mapping != nullptr || (p->flags.load() & (1UL << PG_locked))) {
    k.Bug(Check::kAddPageBusy, "kernel BUG in add_to_page_cache_lru: page busy",
          dump_page(p) +
              "\npage dumped because: VM_BUG_ON_PAGE(PageLocked(page) || "
              "page->mapping)");
  }
  std::lock_guard<RunMutex> l(KernelInternal::TreeLock(k));
  if (mapping->page_tree.count(index)) return -EEXIST;
  p->flags.fetch_or((1UL << PG_locked) | (1UL << PG_lru));
  p->_count.fetch_add(1);
  p->mapping = mapping;
  p->index = index;
  mapping->page_tree[index] = p;
  mapping->nrpages++;
  return 0;
}

void delete_from_page_cache(page* p) {
  Kernel& k = Kernel::Current();
  CheckPage(p, "delete_from_page_cache");
  k.Point("delete_from_page_cache", p->pfn);
  if (!(p->flags.load() & (1UL << PG_locked))) {
    k.Bug(Check::kDeletePageUnlocked,
          "kernel BUG in delete_from_page_cache: BUG_ON(!PageLocked(page))",
          dump_page(p) +
              "\nkernel BUG at mm/filemap.c! BUG_ON(!PageLocked(page))");
  }
  {
    std::lock_guard<RunMutex> l(KernelInternal::TreeLock(k));
    address_space* m = p->mapping;
    if (m == nullptr) return;
    auto it = m->page_tree.find(p->index);
    if (it != m->page_tree.end() && it->second == p) m->page_tree.erase(it);
    m->nrpages--;
    p->mapping = nullptr;
  }
  put_page(p);  // the page cache's reference
}

int folio_migrate_mapping(page* newp, page* old, int extra_count) {
  Kernel& k = Kernel::Current();
  CheckPage(newp, "folio_migrate_mapping");
  CheckPage(old, "folio_migrate_mapping");
  k.Point("folio_migrate_mapping", old->pfn);
  // The slot and both pages' counts change at once.
  KernelInternal::NoteWideEffect(k);
  std::lock_guard<RunMutex> l(KernelInternal::TreeLock(k));
  address_space* m = old->mapping;
  if (m == nullptr) return -EAGAIN;  // truncated meanwhile
  // folio_ref_freeze(folio, expected_count): fails when another reference
  // was taken since the caller looked.
  if (old->_count.load() != 2 + extra_count) return -EAGAIN;
  auto it = m->page_tree.find(old->index);
  if (it == m->page_tree.end() || it->second != old) return -EAGAIN;
  newp->mapping = m;
  newp->index = old->index;
  newp->_count.fetch_add(1);  // the page cache's reference
  it->second = newp;
  old->_count.fetch_sub(1);  // unfrozen at one less: the cache's is gone
  return 0;
}

std::vector<address_space*> page_cache_mappings() {
  Kernel& k = Kernel::Current();
  std::lock_guard<RunMutex> l(KernelInternal::TreeLock(k));
  return KernelInternal::Mappings(k);
}

std::vector<pgoff_t> page_cache_indexes(address_space* mapping) {
  Kernel& k = Kernel::Current();
  std::lock_guard<RunMutex> l(KernelInternal::TreeLock(k));
  std::vector<pgoff_t> out;
  for (const auto& [index, p] : mapping->page_tree) out.push_back(index);
  return out;
}

// Evicts p if it is clean, unlocked and referenced only by the page cache.
static bool TryEvict(address_space* mapping, pgoff_t index) {
  page* p = find_get_page(mapping, index);
  if (p == nullptr) return false;
  bool evicted = false;
  if (trylock_page(p)) {
    if (p->mapping == mapping && !(p->flags.load() & (1UL << PG_dirty)) &&
        p->_count.load() == 2) {
      delete_from_page_cache(p);
      evicted = true;
    }
    unlock_page(p);
  }
  put_page(p);
  return evicted;
}

unsigned long invalidate_mapping_pages(address_space* mapping, pgoff_t start,
                                       pgoff_t end) {
  Kernel& k = Kernel::Current();
  std::vector<pgoff_t> indexes;
  {
    std::lock_guard<RunMutex> l(KernelInternal::TreeLock(k));
    for (auto it = mapping->page_tree.lower_bound(start);
         it != mapping->page_tree.end() && it->first <= end; ++it)
      indexes.push_back(it->first);
  }
  unsigned long n = 0;
  for (pgoff_t i : indexes) n += TryEvict(mapping, i);
  return n;
}

unsigned long shrink_page_cache(unsigned long nr) {
  Kernel& k = Kernel::Current();
  std::vector<address_space*> maps;
  {
    std::lock_guard<RunMutex> l(KernelInternal::TreeLock(k));
    maps = KernelInternal::Mappings(k);
  }
  unsigned long n = 0;
  for (address_space* m : maps) {
    if (n >= nr) break;
    n += invalidate_mapping_pages(m, 0, ~0UL);
  }
  shrink_buffer_heads();  // the block device's pages go too
  return n;
}

}  // namespace squashlab
