// SPDX-License-Identifier: GPL-2.0-only
// This file implements struct page and the page calls of the read path:
// reference counting (get_page / put_page / page_cache_release), the page
// lock (lock_page / trylock_page / unlock_page / wait_on_page_locked), the
// flag setters and testers, and kmap. Every call checks its contract and
// reports as the kernel does ("BUG: Bad page state", VM_BUG_ON_PAGE).
#ifndef SQUASHLAB_MODEL_KERNEL_PAGE_H_
#define SQUASHLAB_MODEL_KERNEL_PAGE_H_

#include <atomic>
#include <cstdint>
#include <string>

namespace squashlab {

struct address_space;

inline constexpr size_t PAGE_SIZE = 4096;
inline constexpr size_t PAGE_CACHE_SIZE = PAGE_SIZE;
inline constexpr int PAGE_SHIFT = 12;
inline constexpr int PAGE_CACHE_SHIFT = PAGE_SHIFT;
inline constexpr uint64_t kPageMagic = 0x9a6e5a6e00000001ULL;

// Bit numbers as in 3.13's include/linux/page-flags.h, so printed flag words
// read like the kernel's (error|uptodate = 0x0a).
enum pageflags {
  PG_locked = 0,
  PG_error = 1,
  PG_referenced = 2,
  PG_uptodate = 3,
  PG_dirty = 4,
  PG_lru = 5,
  PG_readahead = 17,  // PG_reclaim in the kernel; readahead reuses the bit
};

struct page {
  uint64_t magic = kPageMagic;
  std::atomic<unsigned long> flags{0};
  std::atomic<int> _count{0};
  address_space* mapping = nullptr;  // guarded by the kernel's tree_lock
  unsigned long index = 0;
  unsigned long pfn = 0;
  bool freed = true;     // back in the page allocator
  bool bad = false;      // reported as "Bad page state": leaked
  char* data = nullptr;  // PAGE_SIZE bytes
};

// A struct page as dump_page prints it: "page:... count:0 mapcount:0 ...".
std::string dump_page(const page* p);
std::string page_flags_string(unsigned long flags);

// Allocation: a fresh page with count 1, no mapping, no flags.
page* alloc_page(unsigned gfp);
// The byte at `offset` of a fresh page on a kernel with KernelConfig::kmsan:
// no run of file data is likely to match a stretch of it at the same
// offsets (a multiplicative hash of the offset, never a constant byte).
inline char UninitPagePattern(size_t offset) {
  return static_cast<char>(((offset + 1) * 0x9e3779b1u) >> 24);
}
page* page_cache_alloc(address_space* mapping);
page* page_cache_alloc_readahead(address_space* mapping);

// References. put_page frees the page at count 0 and checks its state.
void get_page(page* p);
void put_page(page* p);
inline void page_cache_release(page* p) { put_page(p); }
int page_count(page* p);

// The page lock. lock_page and wait_on_page_locked may sleep.
void lock_page(page* p);
int trylock_page(page* p);
void unlock_page(page* p);
void wait_on_page_locked(page* p);
// 6.12's folio_end_read (mm/filemap.c): the end of a read of a locked
// folio, uptodate on success, unlocked in the same atomic step. DEBUG_VM
// checks that the folio is locked and not yet uptodate.
void folio_end_read(page* p, bool success);
void __set_page_locked(page* p);  // for a page nobody else can see yet
void __clear_page_locked(page* p);

// Flags. SetPageUptodate requires the page lock (VM_BUG_ON_PAGE).
int PageLocked(page* p);
int PageUptodate(page* p);
void SetPageUptodate(page* p);
void ClearPageUptodate(page* p);
int PageError(page* p);
void SetPageError(page* p);
void ClearPageError(page* p);
int PageReadahead(page* p);
void SetPageReadahead(page* p);
void ClearPageReadahead(page* p);
int TestClearPageReadahead(page* p);
int PageLRU(page* p);
int PageDirty(page* p);

// Data access.
void* page_address(page* p);
void* kmap(page* p);
void kunmap(page* p);
// Disables preemption until kunmap_atomic (migration only on PREEMPT_RT).
void* kmap_atomic(page* p);
void kunmap_atomic(void* addr);
void flush_dcache_page(page* p);

// Internal, for filemap.cc and reclaim: checks that p points to a live page.
void CheckPage(page* p, const char* fn);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_KERNEL_PAGE_H_
