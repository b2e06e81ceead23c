// SPDX-License-Identifier: GPL-2.0-only
// This file implements struct page: references, the page lock, flags, and
// the "Bad page state" check the page allocator makes when a page is freed.
#include "model/kernel/page.h"

#include <cstdio>

#include "model/kernel/filemap.h"
#include "model/kernel/kernel.h"
#include "model/kernel/kernel_internal.h"
#include "model/kernel/preempt.h"
#include "model/kernel/quiescence.h"

namespace squashlab {
namespace {

constexpr unsigned long Bit(int b) { return 1UL << b; }

bool TestBit(page* p, int b) {
  return p->flags.load(std::memory_order_acquire) & Bit(b);
}
void SetBit(page* p, int b) {
  p->flags.fetch_or(Bit(b), std::memory_order_release);
}
void ClearBit(page* p, int b) {
  p->flags.fetch_and(~Bit(b), std::memory_order_release);
}

page* Enter(page* p, const char* fn) {
  Kernel& k = Kernel::Current();
  CheckPage(p, fn);
  k.Point(fn, p->pfn);
  return p;
}

// VM_BUG_ON_PAGE: an oops on a debug kernel; on a production one (no
// DEBUG_VM) a warning, and the caller goes on as that kernel would.
void VmBugOnPage(Check check, page* p, const char* fn, const char* cond) {
  Kernel::Current().DebugBug(
      check,
      std::string("kernel BUG in ") + fn + ": VM_BUG_ON_PAGE(" + cond + ")",
      dump_page(p) + "\npage dumped because: VM_BUG_ON_PAGE(" + cond +
          ")\nkernel BUG at mm/filemap.c! (" + fn + ")");
}

// free_pages_check(): what the page allocator verifies when a page comes
// back (3.13): no mapping, count 0, no PAGE_FLAGS_CHECK_AT_FREE flag
// (locked, lru, ...). A bad page is printed with every flag it has (the
// seed's "error|uptodate"), tainted and leaked: the kernel goes on without
// it, and so does the run (a warning).
void FreePage(page* p) {
  Kernel& k = Kernel::Current();
  KernelInternal::NoteWideEffect(
      k);  // every flag, the mapping, and `freed` (CheckPage)
  // __page_cache_release takes the page off the LRU before the check.
  unsigned long f = p->flags.fetch_and(~Bit(PG_lru)) & ~Bit(PG_lru);
  const char* reason = nullptr;
  if (p->mapping != nullptr)
    reason = "non-NULL mapping";
  else if (f & Bit(PG_locked))
    reason = "PAGE_FLAGS_CHECK_AT_FREE flag(s) set";
  if (reason != nullptr) {
    Task* t = k.current_task();
    char first[128];
    std::snprintf(first, sizeof first,
                  "BUG: Bad page state in process %s  pfn:%05lx\n",
                  t ? t->spec.name.c_str() : "swapper", p->pfn);
    p->bad = true;
    k.Warn(Check::kBadPageState, "BUG: Bad page state",
           first + dump_page(p) + "\npage dumped because: " + reason +
               "\nDisabling lock debugging due to kernel taint");
    return;
  }
  p->flags.store(0);
  p->freed = true;
  // The page goes back to the allocator: KASAN poisons it (debug), a
  // production kernel hands it out again.
  Task* t = k.current_task();
  size_t size = 0;
  std::lock_guard<RunMutex> l(KernelInternal::TreeLock(k));
  KernelInternal::Heap_(k).Free(p->data, &size, "__free_pages",
                                t ? t->Comm() : "setup", t ? t->cpu : 0);
}

}  // namespace

std::string page_flags_string(unsigned long flags) {
  static const struct {
    int bit;
    const char* name;
  } kNames[] = {{PG_locked, "locked"},         {PG_error, "error"},
                {PG_referenced, "referenced"}, {PG_uptodate, "uptodate"},
                {PG_dirty, "dirty"},           {PG_lru, "lru"},
                {PG_readahead, "reclaim"}};
  std::string s;
  for (auto& n : kNames) {
    if (!(flags & Bit(n.bit))) continue;
    if (!s.empty()) s += "|";
    s += n.name;
  }
  return s;
}

std::string dump_page(const page* p) {
  char buf[256];
  unsigned long f = p->flags.load();
  std::snprintf(
      buf, sizeof buf,
      "page:ffffea%010lx count:%d mapcount:0 mapping:%016lx index:0x%lx\n"
      "page flags: 0x%lx(%s)",
      p->pfn * 64, p->_count.load(), p->mapping ? p->mapping->debug_addr : 0UL,
      p->index, f, page_flags_string(f).c_str());
  // page_owner's note: where kernel code under test last took the page.
  Kernel* k = Kernel::CurrentOrNull();
  std::string owner = k ? k->PageOwner(p) : "";
  return owner.empty() ? std::string(buf)
                       : std::string(buf) + "\npage_owner: " + owner;
}

// CheckPage's reports (out of line: the check is on every page call).
[[gnu::noinline, gnu::cold]] static void BadPage(Kernel& k, page* p,
                                                 const char* fn) {
  if (p->magic != kPageMagic)
    k.Bug(Check::kNotAPage, std::string("general protection fault in ") + fn,
          std::string("general protection fault: 0000 [#1] SMP\nIP: ") + fn +
              ": not a struct page");
  // struct page is never freed (the memmap): no KASAN here. The model
  // notes the access as lint and goes on as the kernel would.
  if (p->freed)
    k.Lint(Check::kPageFreedAccess,
           std::string("access to a free page in ") + fn,
           std::string(fn) + ": the page was freed\n" + dump_page(p));
}

void CheckPage(page* p, const char* fn) {
  Kernel& k = Kernel::Current();
  k.CheckPtr(p, fn);
  if (p->magic != kPageMagic || p->freed) BadPage(k, p, fn);
}

page* alloc_page(unsigned gfp) {
  Kernel& k = Kernel::Current();
  if (gfp & __GFP_WAIT) k.MightSleep("alloc_pages");
  k.Point("alloc_page", 0);
  return KernelInternal::AllocPage(k);
}
// mapping_gfp_mask(): GFP_HIGHUSER_MOVABLE, an allocation that may sleep.
page* page_cache_alloc(address_space*) { return alloc_page(GFP_KERNEL); }
page* page_cache_alloc_readahead(address_space*) {
  return alloc_page(GFP_KERNEL);
}

void get_page(page* p) {
  Enter(p, "get_page");
  if (p->_count.fetch_add(1) <= 0)
    VmBugOnPage(Check::kGetPageZero, p, "get_page",
                "atomic_read(&page->_count) <= 0");
}

void put_page(page* p) {
  Kernel& k = Kernel::Current();
  k.CheckPtr(p, "put_page");
  k.Point("put_page", p->pfn);
  // A freed page has count 0: the kernel reports the refcount, not the free.
  // Without DEBUG_VM the count would go negative; the model leaves it at 0.
  if (p->magic == kPageMagic && p->_count.load() <= 0)
    return VmBugOnPage(Check::kPutPageZero, p, "put_page",
                       "atomic_read(&page->_count) == 0");
  CheckPage(p, "put_page");
  int old = p->_count.fetch_sub(1);
  if (old <= 0) {
    p->_count.fetch_add(1);
    return VmBugOnPage(Check::kPutPageZero, p, "put_page",
                       "atomic_read(&page->_count) == 0");
  }
  if (old == 1) FreePage(p);
}

int page_count(page* p) { return Enter(p, "page_count")->_count.load(); }

void lock_page(page* p) {
  Kernel& k = Kernel::Current();
  CheckPage(p, "lock_page");
  k.MightSleep("lock_page");
  k.Point("lock_page", p->pfn);
  while (p->flags.fetch_or(Bit(PG_locked), std::memory_order_acquire) &
         Bit(PG_locked)) {
    k.Sleep(
        KernelInternal::Waitqueue(k, Kernel::WaitOn::kPage, p->pfn),
        [p] { return !TestBit(p, PG_locked); }, "lock_page", p->pfn);
  }
}

int trylock_page(page* p) {
  Enter(p, "trylock_page");
  return !(p->flags.fetch_or(Bit(PG_locked), std::memory_order_acquire) &
           Bit(PG_locked));
}

void unlock_page(page* p) {
  Kernel& k = Kernel::Current();
  Enter(p, "unlock_page");
  if (!TestBit(p, PG_locked))
    VmBugOnPage(Check::kUnlockPageUnlocked, p, "unlock_page",
                "!PageLocked(page)");
  ClearBit(p, PG_locked);
  k.Wake(KernelInternal::Waitqueue(k, Kernel::WaitOn::kPage, p->pfn));
}

// mm/filemap.c folio_end_read (6.12): VM_BUG_ON_FOLIO(!folio_test_locked)
// at line 1538, VM_BUG_ON_FOLIO(folio_test_uptodate) at line 1539, then one
// xor of PG_locked (and PG_uptodate on success) and the wake-up. Each
// VM_BUG_ON_FOLIO dumps the folio and is BUG(): "kernel BUG at
// mm/filemap.c:LINE!" on a debug kernel, nothing without DEBUG_VM (the
// model warns there, as VmBugOnPage does).
void folio_end_read(page* p, bool success) {
  Kernel& k = Kernel::Current();
  Enter(p, "folio_end_read");
  auto vm_bug_on_folio = [&](Check check, int line, const char* cond) {
    const std::string at =
        "kernel BUG at mm/filemap.c:" + std::to_string(line) + "!";
    k.DebugBug(check, at,
               dump_page(p) + "\npage dumped because: VM_BUG_ON_FOLIO(" + cond +
                   ")\n" + at +
                   "\ninvalid opcode: 0000 [#1] SMP KASAN\nRIP: "
                   "0010:folio_end_read");
  };
  if (!TestBit(p, PG_locked))
    vm_bug_on_folio(Check::kFolioEndReadUnlocked, 1538,
                    "!folio_test_locked(folio)");
  if (TestBit(p, PG_uptodate))
    vm_bug_on_folio(Check::kFolioEndReadUptodate, 1539,
                    "folio_test_uptodate(folio)");
  // folio_xor_flags_has_waiters: a plain xor, so without DEBUG_VM an
  // unlocked folio ends up locked and an uptodate one !uptodate.
  p->flags.fetch_xor(Bit(PG_locked) | (success ? Bit(PG_uptodate) : 0UL),
                     std::memory_order_release);
  k.Wake(KernelInternal::Waitqueue(k, Kernel::WaitOn::kPage, p->pfn));
}

void wait_on_page_locked(page* p) {
  Kernel& k = Kernel::Current();
  CheckPage(p, "wait_on_page_locked");
  k.MightSleep("wait_on_page_locked");
  k.Point("wait_on_page_locked", p->pfn);
  k.Sleep(
      KernelInternal::Waitqueue(k, Kernel::WaitOn::kPage, p->pfn),
      [p] { return !TestBit(p, PG_locked); }, "wait_on_page_locked", p->pfn);
}

void __set_page_locked(page* p) {
  SetBit(Enter(p, "__set_page_locked"), PG_locked);
}
void __clear_page_locked(page* p) {
  ClearBit(Enter(p, "__clear_page_locked"), PG_locked);
}

int PageLocked(page* p) { return TestBit(Enter(p, "PageLocked"), PG_locked); }
int PageUptodate(page* p) {
  return TestBit(Enter(p, "PageUptodate"), PG_uptodate);
}
// smp_wmb(); set_bit(PG_uptodate): no kernel version checks the page lock
// here (3.13's SetPageUptodate, 6.x's folio_mark_uptodate). A design that
// sets it after unlock_page shows by its consequence: a reader that took
// the lock in between saw !PageUptodate and returned EIO.
void SetPageUptodate(page* p) {
  SetBit(Enter(p, "SetPageUptodate"), PG_uptodate);
}
void ClearPageUptodate(page* p) {
  ClearBit(Enter(p, "ClearPageUptodate"), PG_uptodate);
}
int PageError(page* p) { return TestBit(Enter(p, "PageError"), PG_error); }
void SetPageError(page* p) { SetBit(Enter(p, "SetPageError"), PG_error); }
void ClearPageError(page* p) { ClearBit(Enter(p, "ClearPageError"), PG_error); }
int PageReadahead(page* p) {
  return TestBit(Enter(p, "PageReadahead"), PG_readahead);
}
void SetPageReadahead(page* p) {
  SetBit(Enter(p, "SetPageReadahead"), PG_readahead);
}
void ClearPageReadahead(page* p) {
  ClearBit(Enter(p, "ClearPageReadahead"), PG_readahead);
}
int TestClearPageReadahead(page* p) {
  Enter(p, "TestClearPageReadahead");
  return (p->flags.fetch_and(~Bit(PG_readahead)) & Bit(PG_readahead)) != 0;
}
int PageLRU(page* p) { return TestBit(Enter(p, "PageLRU"), PG_lru); }
int PageDirty(page* p) { return TestBit(Enter(p, "PageDirty"), PG_dirty); }

void* page_address(page* p) {
  CheckPage(p, "page_address");
  return p->data;
}
void* kmap(page* p) {
  Kernel::Current().MightSleep("kmap");
  return page_address(p);
}
void kunmap(page* p) { CheckPage(p, "kunmap"); }
// kmap_atomic disables page faults and preemption; on PREEMPT_RT only
// migration (highmem-internal.h: migrate_disable when CONFIG_PREEMPT_RT;
// the 4.x -rt patches' preempt_disable_nort was a no-op there), so the
// holder stays preemptible.
void* kmap_atomic(page* p) {
  CheckPage(p, "kmap_atomic");
  if (Kernel::Current().config().preempt_rt)
    migrate_disable();
  else
    preempt_disable();
  return p->data;
}
void kunmap_atomic(void*) {
  if (Kernel::Current().config().preempt_rt)
    migrate_enable();
  else
    preempt_enable();
}
void flush_dcache_page(page* p) { Enter(p, "flush_dcache_page"); }

// At quiescence every page is unlocked, a page-cache page is uptodate or
// in error, and only the page cache holds a reference.
void CheckPagesAtQuiescence(Kernel& k) {
  for (auto& p : KernelInternal::Pages(k)) {
    if (p->freed || p->bad) continue;  // a bad page was reported when freed
    unsigned long f = p->flags.load();
    int expected = p->mapping ? 1 : 0;
    if (f & (1UL << PG_locked)) {
      return k.Lint(Check::kPageLockedAtQuiescence,
                    "page left locked at quiescence",
                    dump_page(p.get()) +
                        "\nno task will ever unlock it: readers sleep forever");
    }
    if (p->mapping && !(f & (1UL << PG_uptodate)) && !(f & (1UL << PG_error)) &&
        !k.config().mm_rereads_not_uptodate()) {
      return k.Lint(Check::kPageNotUptodateAtQuiescence,
                    "page cache page neither uptodate nor error",
                    dump_page(p.get()));
    }
    if (p->_count.load() != expected) {
      return k.Lint(Check::kPageRefLeak, "page reference leak at quiescence",
                    dump_page(p.get()) + "\nexpected count " +
                        std::to_string(expected) +
                        (expected ? " (the page cache's reference)" : ""));
    }
  }
}
const QuiescenceCheckRegistration kPagesAtQuiescence(10, "pages",
                                                     CheckPagesAtQuiescence);

}  // namespace squashlab
