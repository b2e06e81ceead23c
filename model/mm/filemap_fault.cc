// SPDX-License-Identifier: GPL-2.0-only
// This file implements the read fault path of 6.1 and 6.12 over the model's
// page cache (filemap_fault.h): mm/memory.c do_read_fault, do_fault_around,
// finish_fault; mm/filemap.c filemap_map_pages, filemap_fault,
// do_sync_mmap_readahead, do_async_mmap_readahead,
// lock_folio_maybe_drop_mmap.
#include "model/mm/filemap_fault.h"

#include <algorithm>
#include <cstring>

#include "model/kernel/kernel.h"
#include "model/kernel/page.h"
#include "model/kernel/preempt.h"
#include "model/mm/filemap_read_6x.h"
#include "model/mm/readahead_6x.h"

namespace squashlab {
namespace {

// include/linux/fs.h: "the page was truncated: look it up again".
constexpr int AOP_TRUNCATED_PAGE = 0x80001;
// mm/filemap.c: past this many misses a mapping stops reading around.
constexpr unsigned MMAP_LOTSAMISS = 100;
// arch/x86: 512 entries a page table.
constexpr unsigned long PTRS_PER_PTE = 512;

bool Is6_1() { return Kernel::Current().config().mm_era == MmEra::k6_1; }

struct vm_fault {
  vm_area_struct* vma;
  pgoff_t pgoff;
  unsigned flags;
  struct page* pg = nullptr;  // the locked page of VM_FAULT_LOCKED
};

pgoff_t DivRoundUpPages(uint64_t bytes) {
  return static_cast<pgoff_t>((bytes + PAGE_SIZE - 1) >> PAGE_SHIFT);
}

// maybe_unlock_mmap_for_io: the first try of a fault that may be retried
// pins the file and drops the mmap lock before it does I/O; the fault then
// ends in VM_FAULT_RETRY. True when the lock is (now) dropped.
bool maybe_unlock_mmap_for_io(const vm_fault& vmf, bool fpin) {
  if (fpin) return true;
  return (vmf.flags & FAULT_FLAG_ALLOW_RETRY) &&
         !(vmf.flags & FAULT_FLAG_TRIED) &&
         !(vmf.flags & FAULT_FLAG_RETRY_NOWAIT);
}

// do_sync_mmap_readahead: a miss; returns fpin.
bool do_sync_mmap_readahead(const vm_fault& vmf) {
  file* filp = vmf.vma->vm_file;
  file_ra_state* ra = &filp->f_ra;
  address_space* mapping = filp->f_mapping;
  const unsigned long vm_flags = vmf.vma->vm_flags;
  bool fpin = false;
  // VM_HUGEPAGE is never set here (no madvise(MADV_HUGEPAGE)).
  if (vm_flags & VM_RAND_READ) return fpin;
  if (!ra->ra_pages) return fpin;
  if (vm_flags & VM_SEQ_READ) {
    fpin = maybe_unlock_mmap_for_io(vmf, fpin);
    page_cache_sync_ra(mapping, ra, filp, vmf.pgoff, ra->ra_pages);
    return fpin;
  }
  unsigned mmap_miss = ra->mmap_miss;  // READ_ONCE
  if (mmap_miss < MMAP_LOTSAMISS * 10) ra->mmap_miss = ++mmap_miss;
  if (mmap_miss > MMAP_LOTSAMISS) return fpin;
  // mmap read-around: ra_pages centred on the fault.
  fpin = maybe_unlock_mmap_for_io(vmf, fpin);
  const unsigned long half = ra->ra_pages / 2;
  ra->start = vmf.pgoff > half ? vmf.pgoff - half : 0;
  ra->size = ra->ra_pages;
  ra->async_size = ra->ra_pages / 4;
  page_cache_ra_order(mapping, ra, filp);
  return fpin;
}

// do_async_mmap_readahead: a hit on pg; returns fpin.
bool do_async_mmap_readahead(const vm_fault& vmf, page* pg) {
  file* filp = vmf.vma->vm_file;
  file_ra_state* ra = &filp->f_ra;
  bool fpin = false;
  if ((vmf.vma->vm_flags & VM_RAND_READ) || !ra->ra_pages) return fpin;
  unsigned mmap_miss = ra->mmap_miss;
  if (mmap_miss) ra->mmap_miss = --mmap_miss;
  if (PageReadahead(pg)) {
    fpin = maybe_unlock_mmap_for_io(vmf, fpin);
    page_cache_async_ra(filp->f_mapping, ra, filp, pg, vmf.pgoff, ra->ra_pages);
  }
  return fpin;
}

// __filemap_get_folio(FGP_CREAT | FGP_FOR_MMAP): the cached page, or a new
// one added to the cache and unlocked again (the fault locks it itself).
page* filemap_get_folio_for_mmap(address_space* mapping, pgoff_t index) {
  for (;;) {
    page* p = find_get_page(mapping, index);
    if (p != nullptr) return p;
    p = page_cache_alloc(mapping);
    if (p == nullptr) return nullptr;
    int err = add_to_page_cache_lru(p, mapping, index, GFP_KERNEL);
    if (err == -EEXIST) {
      put_page(p);
      continue;
    }
    if (err) {
      put_page(p);
      return nullptr;
    }
    unlock_page(p);
    return p;
  }
}

// lock_folio_maybe_drop_mmap: trylock, else (the mmap lock dropped on a
// first try) sleep for the lock. No fatal signal in the model: a killable
// lock always ends locked.
void lock_folio_maybe_drop_mmap(const vm_fault& vmf, page* p, bool* fpin) {
  if (trylock_page(p)) return;
  *fpin = maybe_unlock_mmap_for_io(vmf, *fpin);
  lock_page(p);
}

// filemap_fault: VM_FAULT_LOCKED with vmf->page, VM_FAULT_RETRY,
// VM_FAULT_SIGBUS or VM_FAULT_OOM.
vm_fault_t filemap_fault(vm_fault& vmf) {
  file* filp = vmf.vma->vm_file;
  address_space* mapping = filp->f_mapping;
  inode* ino = mapping_host(mapping);
  const pgoff_t index = vmf.pgoff;
  bool fpin = false;
  bool mapping_locked = false;  // filemap_invalidate_lock_shared
  vm_fault_t ret = 0;
  int error = 0;
  if (index >= DivRoundUpPages(i_size_read(ino))) return VM_FAULT_SIGBUS;
  page* folio = find_get_page(mapping, index);
  if (folio != nullptr) {
    // Found: try async readahead before waiting for the lock.
    if (!(vmf.flags & FAULT_FLAG_TRIED))
      fpin = do_async_mmap_readahead(vmf, folio);
    if (!PageUptodate(folio)) mapping_locked = true;
  } else {
    ret = VM_FAULT_MAJOR;
    fpin = do_sync_mmap_readahead(vmf);
  retry_find:
    mapping_locked = true;
    folio = filemap_get_folio_for_mmap(mapping, index);
    if (folio == nullptr) {
      if (fpin) goto out_retry;
      return VM_FAULT_OOM;
    }
  }
  lock_folio_maybe_drop_mmap(vmf, folio, &fpin);
  if (folio->mapping != mapping) {  // truncated or reclaimed meanwhile
    unlock_page(folio);
    put_page(folio);
    goto retry_find;
  }
  if (!PageUptodate(folio)) {
    // Cached and uptodate, now not: look it up again with the
    // invalidate lock; else a read error or readahead left it: read it.
    if (!mapping_locked) {
      unlock_page(folio);
      put_page(folio);
      goto retry_find;
    }
    goto page_not_uptodate;
  }
  if (fpin) {  // the mmap lock was dropped: let the fault be redone
    unlock_page(folio);
    goto out_retry;
  }
  // i_size again, under the page lock.
  if (index >= DivRoundUpPages(i_size_read(ino))) {
    unlock_page(folio);
    put_page(folio);
    return VM_FAULT_SIGBUS;
  }
  vmf.pg = folio;
  return ret | VM_FAULT_LOCKED;

page_not_uptodate:
  // Read it again, once, synchronously, to see the error.
  fpin = maybe_unlock_mmap_for_io(vmf, fpin);
  error = filemap_read_folio(filp, folio);
  if (fpin) goto out_retry;
  put_page(folio);
  if (!error || error == AOP_TRUNCATED_PAGE) goto retry_find;
  return VM_FAULT_SIGBUS;

out_retry:
  if (folio != nullptr) put_page(folio);
  return ret | VM_FAULT_RETRY;
}

// do_fault_around: the fault_around_bytes-aligned run of entries around
// the fault, clamped to the vma and the page table; map_pages over it.
vm_fault_t do_fault_around(const vm_fault& vmf) {
  const vm_area_struct* vma = vmf.vma;
  const unsigned long nr = kFaultAroundPages;
  const pgoff_t vma_off = vmf.pgoff - vma->vm_pgoff;
  const unsigned long pte_off =
      ((vma->vm_start >> PAGE_SHIFT) + vma_off) & (PTRS_PER_PTE - 1);
  const unsigned long from_pte =
      std::max(pte_off & ~(nr - 1), pte_off - std::min(pte_off, vma_off));
  const unsigned long to_pte = std::min({from_pte + nr, PTRS_PER_PTE,
                                         pte_off + vma->nr_pages - vma_off}) -
                               1;
  return filemap_map_pages(vmf.vma, vmf.pgoff, vmf.pgoff + from_pte - pte_off,
                           vmf.pgoff + to_pte - pte_off);
}

// do_read_fault: fault-around first, ->fault as the fallback, then
// finish_fault maps the locked page (the fault's reference becomes the
// entry's) and it is unlocked.
vm_fault_t do_read_fault(vm_fault& vmf) {
  vm_fault_t ret = 0;
  if (kFaultAroundPages > 1) {  // should_fault_around
    ret = do_fault_around(vmf);
    if (ret) return ret;
  }
  ret = filemap_fault(vmf);  // __do_fault
  if (ret & (VM_FAULT_ERROR | VM_FAULT_NOPAGE | VM_FAULT_RETRY)) return ret;
  page* p = vmf.pg;
  // finish_fault: an entry another thread of the mm installed meanwhile is
  // left as it is (one task per mm here: never).
  auto [it, inserted] = vmf.vma->pte.emplace(vmf.pgoff, p);
  if (!inserted) ret |= VM_FAULT_NOPAGE;
  unlock_page(p);
  if (ret & (VM_FAULT_ERROR | VM_FAULT_NOPAGE | VM_FAULT_RETRY)) put_page(p);
  return ret;
}

}  // namespace

vm_fault_t filemap_map_pages(vm_area_struct* vma, pgoff_t pgoff, pgoff_t start,
                             pgoff_t end) {
  file* filp = vma->vm_file;
  address_space* mapping = filp->f_mapping;
  const pgoff_t max_idx = DivRoundUpPages(i_size_read(mapping_host(mapping)));
  if (max_idx == 0) return 0;
  end = std::min(end, max_idx - 1);  // file_end
  vm_fault_t ret = 0;
  // 6.1 counts mmap_miss down from the file's value for each page it maps;
  // 6.12 counts the pages and subtracts them at the end.
  unsigned mmap_miss = Is6_1() ? filp->f_ra.mmap_miss : 0;
  // rcu_read_lock and the page table lock: nothing in here may sleep.
  preempt_disable();
  for (pgoff_t index = start; index <= end; index++) {
    // next_uptodate_folio: a cached page that is unlocked, uptodate, not
    // PG_readahead (left for the fault, which starts the async readahead),
    // trylocked, still in this mapping and inside i_size.
    page* p = find_get_page(mapping, index);
    if (p == nullptr) continue;
    if (PageLocked(p) || !PageUptodate(p) || PageReadahead(p) ||
        !trylock_page(p)) {
      put_page(p);
      continue;
    }
    if (p->mapping != mapping || !PageUptodate(p) ||
        index >= DivRoundUpPages(i_size_read(mapping_host(mapping)))) {
      unlock_page(p);
      put_page(p);
      continue;
    }
    if (Is6_1()) {
      if (mmap_miss > 0) mmap_miss--;
    } else {
      mmap_miss++;  // no workingset pages in the model
    }
    // An entry already present is left alone; else the lookup's reference
    // becomes the entry's (do_set_pte / set_pte_range).
    if (vma->pte.emplace(index, p).second) {
      if (index == pgoff) ret = VM_FAULT_NOPAGE;
      unlock_page(p);
    } else {
      unlock_page(p);
      put_page(p);
    }
  }
  preempt_enable();
  if (Is6_1()) {
    filp->f_ra.mmap_miss = mmap_miss;
  } else {
    const unsigned saved = filp->f_ra.mmap_miss;
    filp->f_ra.mmap_miss = mmap_miss >= saved ? 0 : saved - mmap_miss;
  }
  return ret;
}

vm_fault_t handle_mm_fault(vm_area_struct* vma, pgoff_t pgoff, unsigned flags) {
  vm_fault vmf{vma, pgoff, flags};
  Kernel::Current().Point("handle_mm_fault", pgoff);
  return do_read_fault(vmf);
}

vm_area_struct* mmap_file(file* filp, uint64_t offset, uint64_t len,
                          unsigned long vm_flags) {
  Kernel& k = Kernel::Current();
  auto* vma = k.New<vm_area_struct>();
  vma->vm_file = filp;
  // get_unmapped_area: each mapping is alone in its task's mm, at one
  // 2 MiB-aligned address (so page table index = file page offset % 512).
  vma->vm_start = 0x7f0000000000UL;
  vma->vm_pgoff = static_cast<unsigned long>(offset >> PAGE_SHIFT);
  vma->nr_pages = static_cast<unsigned long>(DivRoundUpPages(len));
  vma->vm_flags = vm_flags;
  filp->f_mapping->i_mmap_count++;  // __vma_link_file (mm/vma.c:136)
  return vma;
}

void munmap(vm_area_struct* vma) {
  Kernel::Current().Point("munmap", vma->vm_pgoff);
  for (auto& [index, p] : vma->pte) put_page(p);
  vma->pte.clear();
  vma->vm_file->f_mapping->i_mmap_count--;  // __remove_shared_vm_struct
}

vm_fault_t mmap_load(vm_area_struct* vma, uint64_t offset, char* buf,
                     size_t len, size_t* done) {
  size_t copied = 0;
  if (done != nullptr) *done = 0;
  while (copied < len) {
    const uint64_t at = offset + copied;
    const pgoff_t pgoff =
        vma->vm_pgoff + static_cast<pgoff_t>(at >> PAGE_SHIFT);
    unsigned flags =
        FAULT_FLAG_ALLOW_RETRY | FAULT_FLAG_KILLABLE | FAULT_FLAG_USER;
    // A load from a page with no entry faults, and is tried again after
    // the fault (a VM_FAULT_NOPAGE or a retried fault may leave it
    // without one: it faults again).
    for (;;) {
      auto it = vma->pte.find(pgoff);
      if (it != vma->pte.end()) break;
      vm_fault_t ret = handle_mm_fault(vma, pgoff, flags);
      if (ret & VM_FAULT_RETRY) {
        flags |= FAULT_FLAG_TRIED;
        continue;
      }
      if (ret & VM_FAULT_ERROR) return ret & VM_FAULT_ERROR;
    }
    page* p = vma->pte.at(pgoff);
    const size_t in_page = static_cast<size_t>(at & (PAGE_SIZE - 1));
    const size_t n = std::min(len - copied, PAGE_SIZE - in_page);
    std::memcpy(buf + copied, static_cast<char*>(page_address(p)) + in_page, n);
    model_charge(CostKind::kMemcpyByte, n);
    copied += n;
    if (done != nullptr) *done = copied;
  }
  return 0;
}

}  // namespace squashlab
