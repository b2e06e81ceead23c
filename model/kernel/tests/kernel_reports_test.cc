// SPDX-License-Identifier: GPL-2.0-only
// This file implements the tests of warnings and of the production kernel:
// a warning ("Bad page state", "brelse: Trying to free free buffer") is
// recorded and the run goes on; the first fatal report ends it; on a
// production kernel (KernelConfig::debug off) freed objects are reused,
// nothing checks freed memory and DEBUG_VM checks are warnings. Each check
// fires on hand-made misuse and stays silent on correct use.
#include <gtest/gtest.h>

#include <cstring>

#include "model/kernel/buffer_head.h"
#include "model/kernel/filemap.h"
#include "model/kernel/kernel_internal.h"
#include "model/kernel/page.h"
#include "model/kernel/ram_disk.h"
#include "model/kernel/testing/contract.h"
#include "model/sched/explorer.h"
#include "model/sched/replay_strategy.h"

namespace squashlab {
namespace {

KernelConfig Production() {
  KernelConfig c;
  c.debug = false;
  return c;
}

// Runs `body` as the task "dd" under the non-preemptive schedule; the
// whole result, every report included.
RunResult RunAll(std::function<void()> body, KernelConfig config = {},
                 std::function<void(Kernel&)> extra_setup = nullptr) {
  Explorer explorer;
  Scenario sc{"reports", config, [body, extra_setup](Kernel& k) {
                if (extra_setup) extra_setup(k);
                k.Spawn(TaskSpec{"dd", TaskContext::kProcess, 0, 0, 0, body});
              }};
  ReplayStrategy replay({});
  return explorer.RunOnce(sc, replay, 1, false);
}

std::vector<ReportKind> Kinds(const RunResult& r) {
  std::vector<ReportKind> k;
  for (const Report& x : r.reports) k.push_back(x.kind);
  return k;
}

// A page cache page whose last two references are both dropped: freed with
// its mapping set, as the 2013 patch's double completion does.
void FreeWithMapping(bool then_oops) {
  address_space* m = new_address_space("file");
  page* p = page_cache_alloc(m);
  ASSERT_EQ(add_to_page_cache_lru(p, m, 7, GFP_KERNEL), 0);
  SetPageError(p);
  SetPageUptodate(p);
  unlock_page(p);
  page_cache_release(p);
  page_cache_release(p);  // the page cache's reference: count 0, mapping set
  EXPECT_TRUE(p->bad);
  EXPECT_FALSE(p->freed);  // the kernel leaks a bad page
  if (then_oops) Kernel::Current().CheckPtr(nullptr, "after_bad_page");
}

TEST(Warnings, BadPageStateIsAWarningAndTheRunGoesOn) {
  RunResult r = RunAll([] { FreeWithMapping(true); });
  ASSERT_EQ(Kinds(r), (std::vector<ReportKind>{ReportKind::kBadPageState,
                                               ReportKind::kNullDereference}));
  EXPECT_TRUE(r.reports[0].warning);
  EXPECT_FALSE(r.reports[1].warning);
  EXPECT_EQ(r.report.kind, ReportKind::kBadPageState);  // the first report
  const std::string& body = r.reports[0].body;
  EXPECT_NE(body.find("BUG: Bad page state in process dd"), std::string::npos)
      << body;
  EXPECT_NE(body.find("count:0"), std::string::npos) << body;
  EXPECT_NE(body.find("index:0x7"), std::string::npos) << body;
  EXPECT_NE(body.find("(error|uptodate)"), std::string::npos) << body;
  EXPECT_NE(body.find("non-NULL mapping"), std::string::npos) << body;
  EXPECT_FALSE(r.completed);
}

TEST(Warnings, ABadPageIsNotReportedAgainAtQuiescence) {
  RunResult r = RunAll([] { FreeWithMapping(false); });
  ASSERT_EQ(Kinds(r), (std::vector<ReportKind>{ReportKind::kBadPageState}));
}

TEST(Warnings, FindingABadPageInTheCacheSpinsForever) {
  RunResult r = RunAll([] {
    FreeWithMapping(false);
    address_space* m = KernelInternal::Mappings(Kernel::Current()).back();
    find_get_page(m, 7);
    ADD_FAILURE() << "find_get_page returned a page with count 0";
  });
  ASSERT_EQ(Kinds(r), (std::vector<ReportKind>{ReportKind::kBadPageState,
                                               ReportKind::kStepLimit}));
  EXPECT_EQ(r.reports[1].title, "BUG: soft lockup in find_get_page");
}

TEST(Warnings, FreedLockedPageIsBadPageState) {
  RunResult r = RunAll([] {
    page* p = alloc_page(GFP_KERNEL);
    ASSERT_TRUE(trylock_page(p));
    put_page(p);
  });
  ASSERT_EQ(Kinds(r), (std::vector<ReportKind>{ReportKind::kBadPageState}));
  EXPECT_NE(r.report.body.find("PAGE_FLAGS_CHECK_AT_FREE"), std::string::npos);
}

TEST(Warnings, PageFreedCorrectlyIsSilent) {
  for (KernelConfig c : {KernelConfig{}, Production()}) {
    RunResult r = RunAll(
        [] {
          address_space* m = new_address_space("file");
          page* p = page_cache_alloc(m);
          ASSERT_EQ(add_to_page_cache_lru(p, m, 7, GFP_KERNEL), 0);
          SetPageError(p);
          SetPageUptodate(p);
          unlock_page(p);
          page_cache_release(p);
          page* held =
              find_lock_page(m, 7);  // as truncation: a reference and the lock
          ASSERT_EQ(held, p);
          delete_from_page_cache(p);  // drops the cache's reference
          unlock_page(p);
          EXPECT_FALSE(p->freed);
          page_cache_release(p);  // the last one: freed, clean
          EXPECT_TRUE(p->freed);
          page* q = alloc_page(GFP_KERNEL);
          put_page(q);
          EXPECT_TRUE(q->freed);
        },
        c);
    EXPECT_TRUE(r.reports.empty()) << r.report.ToString();
    EXPECT_TRUE(r.completed);
  }
}

TEST(Warnings, BrelseOfAFreeBufferWarnsOnceAndLeavesTheCount) {
  RamDisk disk(std::vector<uint8_t>(8192, 0));
  RunResult r = RunAll([&disk] {
    super_block sb;
    sb.s_bdev = disk.bdev();
    sb.s_blocksize = 1024;
    buffer_head* bh = sb_getblk(&sb, 1);  // count 2: ours and the LRU's
    brelse(bh);
    brelse(bh);  // the LRU's reference: silent
    brelse(bh);  // WARN
    EXPECT_EQ(bh->b_count.load(), 0);
    get_bh(bh);  // the LRU's again, for the umount's invalidate_bh_lrus
  });
  ASSERT_EQ(Kinds(r), (std::vector<ReportKind>{ReportKind::kBrelseFreeBuffer}));
  EXPECT_TRUE(r.report.warning);
  EXPECT_NE(r.report.body.find("WARNING: at fs/buffer.c"), std::string::npos);
  EXPECT_TRUE(r.report.task.rfind("dd", 0) == 0) << r.report.task;
}

TEST(Warnings, OnlyTheFirstFatalReportIsKept) {
  RunResult r = RunAll([] {
    Kernel& k = Kernel::Current();
    k.Warn(ReportKind::kBrelseFreeBuffer, "first warning", "");
    k.Record(ReportKind::kQuiescence, "the fatal one", "");
    k.Record(ReportKind::kLeak, "a second fatal one", "");
    k.Warn(ReportKind::kBadPageState, "a warning after it", "");
    EXPECT_TRUE(k.fatal());
  });
  ASSERT_EQ(r.reports.size(), 2u);
  EXPECT_EQ(r.reports[1].title, "the fatal one");
}

TEST(Warnings, FocusPicksTheChasedClass) {
  RunResult r = RunAll([] { FreeWithMapping(true); });
  Report want = r.reports[1];
  ASSERT_TRUE(r.Focus(want));
  EXPECT_EQ(r.report.kind, ReportKind::kNullDereference);
  Report other;
  other.kind = ReportKind::kHungTask;
  other.title = "INFO: task dd blocked for more than 120 seconds.";
  EXPECT_FALSE(r.Focus(other));
}

// --- the production kernel ---------------------------------------------------

struct Obj {
  int b_count;
  int pad;
  void* ptr;
};

// SLUB (x86-64 3.13, no debugging): the free pointer at offset 0 of a
// free object, the rest of its bytes kept; the cache is the size class.
TEST(ProductionKernel, KfreeKeepsTheBytesAndKmallocReusesThem) {
  RunResult r = RunAll(
      [] {
        auto* a = static_cast<Obj*>(kmalloc(sizeof(Obj), GFP_KERNEL));
        uint64_t fp;
        std::memcpy(&fp, a, sizeof fp);
        // A fresh slab's object holds the next object's address, a
        // kernel-half pointer, until its owner writes it.
        EXPECT_EQ(fp >> 40, 0xffff88u);
        EXPECT_EQ(a->ptr, nullptr);  // the rest of a fresh slab is zero
        a->b_count = 7;
        a->ptr = a;
        kfree(a);
        kasan_check_read(&a->ptr, sizeof a->ptr);  // a stale read: no report
        EXPECT_EQ(a->ptr, a);                      // kept
        EXPECT_NE(a->b_count, 7);  // the free pointer took offset 0
        auto* b = static_cast<Obj*>(kmalloc(sizeof(Obj), GFP_KERNEL));
        EXPECT_EQ(b, a);       // LIFO reuse from the cache
        EXPECT_EQ(b->ptr, a);  // stale field, as on a production SLUB
        kfree(b);
        // Any allocation of the size class (from this site) gets it.
        auto* other = static_cast<char*>(kmalloc(12, GFP_KERNEL));
        EXPECT_EQ(static_cast<void*>(other), static_cast<void*>(a));
        kfree(other);
        auto* z = static_cast<Obj*>(kzalloc(sizeof(Obj), GFP_KERNEL));
        EXPECT_EQ(z, a);
        EXPECT_EQ(z->b_count, 0);
        void* big = kmalloc(sizeof(Obj) + 8, GFP_KERNEL);  // kmalloc-32
        EXPECT_NE(big, static_cast<void*>(a));
        kfree(z);
        kfree(big);
      },
      Production());
  EXPECT_TRUE(r.reports.empty()) << r.report.ToString();
}

// Each CPU has its own freelist: an object freed on CPU 1 is not what
// CPU 0 gets next.
TEST(ProductionKernel, FreelistsArePerCpu) {
  RunResult r = RunAll(
      [] {
        Kernel& k = Kernel::Current();
        void* a = kmalloc(64, GFP_KERNEL);
        int cpu = k.current_task()->cpu;
        k.current_task()->cpu = 1 - cpu;
        kfree(a);  // onto the other CPU's list
        k.current_task()->cpu = cpu;
        void* b = kmalloc(64, GFP_KERNEL);
        EXPECT_NE(b, a);
        k.current_task()->cpu = 1 - cpu;
        void* c = kmalloc(64, GFP_KERNEL);
        EXPECT_EQ(c, a);
        kfree(b);
        kfree(c);
      },
      Production());
  EXPECT_TRUE(r.reports.empty()) << r.report.ToString();
}

TEST(ProductionKernel, DebugKernelPoisonsAndReportsTheSameUse) {
  RunResult r = RunAll([] {
    auto* a = static_cast<Obj*>(kmalloc(sizeof(Obj), GFP_KERNEL));
    a->b_count = 7;
    kfree(a);
    auto* b = static_cast<Obj*>(kmalloc(sizeof(Obj), GFP_KERNEL));
    EXPECT_NE(b, a);  // quarantined
    kasan_check_read(&a->b_count, sizeof a->b_count);
  });
  ASSERT_EQ(Kinds(r), (std::vector<ReportKind>{ReportKind::kUseAfterFree}));
}

// SLUB without debugging says nothing at the second kfree: the object is
// on its cache's freelist twice. The cache hands it out, its owner writes
// its first bytes, the cache hands it out again (silently: two owners)
// and takes the owner's bytes for the next free object: the oops is in
// the allocation after that (the seed's: RBP "<1>Dec 2", text).
TEST(ProductionKernel, DoubleFreeCorruptsTheFreelist) {
  RunResult quiet = RunAll(
      [] {
        void* p = kmalloc(32, GFP_KERNEL);
        kfree(p);
        kfree(p);
      },
      Production());
  EXPECT_TRUE(quiet.reports.empty()) << quiet.report.ToString();
  RunResult r = RunAll(
      [] {
        void* p = kmalloc(32, GFP_KERNEL);
        kfree(p);
        kfree(p);
        void* q = kmalloc(32, GFP_KERNEL);  // p, once
        EXPECT_EQ(q, p);
        std::memcpy(q, "<1>Dec 2", 8);       // its owner writes it
        void* q2 = kmalloc(32, GFP_KERNEL);  // p again, for another owner
        EXPECT_EQ(q2, p);
        (void)kmalloc(32, GFP_KERNEL);  // the head is text: the oops
        ADD_FAILURE() << "went on after the allocator's oops";
      },
      Production());
  ASSERT_EQ(Kinds(r), (std::vector<ReportKind>{ReportKind::kDoubleFree}));
  EXPECT_EQ(r.report.title,
            "slab freelist corrupted: double kfree (oops in "
            "__kmalloc_track_caller)");
  EXPECT_EQ(r.report.contract, "slub.double_free");
  EXPECT_NE(r.report.body.find("RBP: 32206365443e313c"), std::string::npos)
      << r.report.body;
}

TEST(ProductionKernel, AWalkOffTheSlabIsAPagingRequest) {
  RunResult r = RunAll(
      [] {
        auto** arr = static_cast<void**>(kcalloc(4, sizeof(void*), GFP_KERNEL));
        for (int i = 0; i < 8; i++)  // the neighbour object: no fault
          kasan_check_read(&arr[i], sizeof arr[i]);
        // kmalloc-32's first slab is one page: past it, nothing is mapped.
        kasan_check_read(&arr[4096 / sizeof(void*)], sizeof(void*));
        ADD_FAILURE() << "read past the slab";
      },
      Production());
  ASSERT_EQ(Kinds(r),
            (std::vector<ReportKind>{ReportKind::kGeneralProtection}));
  EXPECT_NE(r.report.title.find("paging request"), std::string::npos)
      << r.report.title;
}

TEST(ProductionKernel, AFreelistPointerDereferencedIsAPagingRequest) {
  RunResult r = RunAll([] {
    Kernel::Current().CheckPtr(reinterpret_cast<void*>(0xffff880012345678ULL),
                               "zlib_uncompress");
  });
  ASSERT_EQ(Kinds(r),
            (std::vector<ReportKind>{ReportKind::kGeneralProtection}));
}

TEST(ProductionKernel, NullFieldFaultsAtItsOffset) {
  RunResult r = RunAll(
      [] { Kernel::Current().CheckField(nullptr, 0x28, "zlib_uncompress"); });
  ASSERT_EQ(Kinds(r), (std::vector<ReportKind>{ReportKind::kNullDereference}));
  EXPECT_NE(r.report.body.find("dereference at 0000000000000028"),
            std::string::npos);
  EXPECT_EQ(r.report.title,
            "BUG: unable to handle kernel NULL pointer dereference in "
            "zlib_uncompress");
}

TEST(ProductionKernel, DebugVmChecksAreWarningsAndExecutionGoesOn) {
  RunResult r = RunAll(
      [] {
        address_space* m = new_address_space("file");
        page* p = page_cache_alloc(m);
        ASSERT_EQ(add_to_page_cache_lru(p, m, 7, GFP_KERNEL), 0);
        SetPageError(p);
        unlock_page(p);
        page_cache_release(p);  // first completion: error path
        SetPageUptodate(p);     // second completion, on an unlocked page
        unlock_page(p);
        page_cache_release(p);  // count 0 with the mapping set
      },
      Production());
  // SetPageUptodate checks nothing; unlock_page's VM_BUG_ON_PAGE warns.
  ASSERT_EQ(Kinds(r), (std::vector<ReportKind>{ReportKind::kPageBug,
                                               ReportKind::kBadPageState}));
  for (const Report& x : r.reports) EXPECT_TRUE(x.warning);
  EXPECT_NE(r.reports[1].body.find("(error|uptodate)"), std::string::npos);
  // The debug kernel stops at the first of them.
  RunResult d = RunAll([] {
    page* p = alloc_page(GFP_KERNEL);
    unlock_page(p);
    ADD_FAILURE() << "went on after VM_BUG_ON_PAGE";
  });
  ASSERT_EQ(Kinds(d), (std::vector<ReportKind>{ReportKind::kPageBug}));
  EXPECT_FALSE(d.report.warning);
}

}  // namespace
}  // namespace squashlab
