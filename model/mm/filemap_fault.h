// SPDX-License-Identifier: GPL-2.0-only
// This file implements reads through a mapping of a file, as 6.1's and
// 6.12's page fault path does them for a read-only shared file mapping
// (mm/memory.c do_read_fault; mm/filemap.c filemap_fault, filemap_map_pages):
// a load from a page with no page table entry faults; the fault first maps
// the uptodate cached pages around it without sleeping (do_fault_around,
// fault_around_bytes 64K: trylock, skip locked, !uptodate and PG_readahead
// pages), then, if the faulting page is still not mapped, filemap_fault finds
// it in the page cache (a PG_readahead page starts asynchronous readahead) or,
// on a miss, reads around it (do_sync_mmap_readahead: ra_pages centred on the
// fault, a quarter async, mmap_miss accounting; none under VM_RAND_READ, the
// sequential window under VM_SEQ_READ), creates it if still missing, locks it
// and reads it with ->read_folio if it is not uptodate; a page still
// !uptodate after that is VM_FAULT_SIGBUS. A fault that dropped the mmap lock
// for I/O returns VM_FAULT_RETRY and is redone with FAULT_FLAG_TRIED, as the
// architecture's fault handler does. The page table is a map from file page
// to page: a mapped page holds a reference until munmap, so reclaim, which
// evicts only pages nobody else references (mapping_evict_folio), leaves it.
// Each mapping belongs to one task (its own mm): the mmap lock and the
// invalidate lock are not modelled (nothing here takes them exclusively).
#ifndef SQUASHLAB_MODEL_MM_FILEMAP_FAULT_H_
#define SQUASHLAB_MODEL_MM_FILEMAP_FAULT_H_

#include <cstddef>
#include <cstdint>
#include <map>

#include "model/kernel/filemap.h"
#include "model/kernel/fs.h"

namespace squashlab {

struct page;

// include/linux/mm.h: the madvise hints a fault looks at.
inline constexpr unsigned long VM_SEQ_READ = 0x00008000UL;   // MADV_SEQUENTIAL
inline constexpr unsigned long VM_RAND_READ = 0x00010000UL;  // MADV_RANDOM

// include/linux/mm_types.h: vm_fault_t bits.
using vm_fault_t = unsigned int;
inline constexpr vm_fault_t VM_FAULT_OOM = 0x000001;
inline constexpr vm_fault_t VM_FAULT_SIGBUS = 0x000002;
inline constexpr vm_fault_t VM_FAULT_MAJOR = 0x000004;
inline constexpr vm_fault_t VM_FAULT_NOPAGE = 0x000100;
inline constexpr vm_fault_t VM_FAULT_LOCKED = 0x000200;
inline constexpr vm_fault_t VM_FAULT_RETRY = 0x000400;
inline constexpr vm_fault_t VM_FAULT_ERROR = VM_FAULT_OOM | VM_FAULT_SIGBUS;

// include/linux/mm_types.h: fault_flag bits (a user fault on x86 has
// ALLOW_RETRY | KILLABLE | USER; the retry adds TRIED).
inline constexpr unsigned FAULT_FLAG_ALLOW_RETRY = 1u << 2;
inline constexpr unsigned FAULT_FLAG_RETRY_NOWAIT = 1u << 3;
inline constexpr unsigned FAULT_FLAG_KILLABLE = 1u << 4;
inline constexpr unsigned FAULT_FLAG_TRIED = 1u << 5;
inline constexpr unsigned FAULT_FLAG_USER = 1u << 6;

// mm/memory.c: fault_around_bytes, 64K by default.
inline constexpr unsigned long kFaultAroundPages = 65536 / 4096;

// A read-only shared mapping of a file (MAP_SHARED, PROT_READ).
struct vm_area_struct {
  file* vm_file = nullptr;
  unsigned long vm_start = 0;    // user address, 2 MiB aligned
  unsigned long vm_pgoff = 0;    // the file page mapped at vm_start
  unsigned long nr_pages = 0;    // vma_pages()
  unsigned long vm_flags = 0;    // VM_SEQ_READ / VM_RAND_READ (madvise)
  std::map<pgoff_t, page*> pte;  // present entries, by file page
};

// mmap(NULL, len, PROT_READ, MAP_SHARED, fd, offset): offset page aligned.
vm_area_struct* mmap_file(file* filp, uint64_t offset, uint64_t len,
                          unsigned long vm_flags = 0);
// munmap: every mapped page's reference goes (zap_pte_range).
void munmap(vm_area_struct* vma);

// A user load of len bytes at byte `offset` of the mapping into buf: each
// page without an entry faults (retried after VM_FAULT_RETRY with
// FAULT_FLAG_TRIED, as do_user_addr_fault does) until it is mapped, then
// its bytes are copied. Returns 0, or the fault's VM_FAULT_SIGBUS /
// VM_FAULT_OOM (the task would get SIGBUS) with *done the bytes copied.
vm_fault_t mmap_load(vm_area_struct* vma, uint64_t offset, char* buf,
                     size_t len, size_t* done = nullptr);

// One fault at file page pgoff of the mapping, as handle_mm_fault takes a
// read fault on an empty entry (do_read_fault). Exposed for tests.
vm_fault_t handle_mm_fault(vm_area_struct* vma, pgoff_t pgoff, unsigned flags);
// filemap_map_pages over file pages [start, end] for a fault at pgoff:
// VM_FAULT_NOPAGE when it mapped pgoff. Never sleeps (runs under
// rcu_read_lock and the page table lock). Exposed for tests.
vm_fault_t filemap_map_pages(vm_area_struct* vma, pgoff_t pgoff, pgoff_t start,
                             pgoff_t end);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_MM_FILEMAP_FAULT_H_
