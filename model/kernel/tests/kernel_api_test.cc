// SPDX-License-Identifier: GPL-2.0-only
// This file implements the contract tests of the kernel API: each misuse is
// reported with the right report, each legal use is silent.
#include <gtest/gtest.h>

#include <cstring>

#include "model/kernel/atomic.h"
#include "model/kernel/bio.h"
#include "model/kernel/buffer_head.h"
#include "model/kernel/completion.h"
#include "model/kernel/filemap.h"
#include "model/kernel/page.h"
#include "model/kernel/preempt.h"
#include "model/kernel/ram_disk.h"
#include "model/kernel/testing/contract.h"
#include "model/kernel/workqueue.h"
#include "model/sched/explorer.h"
#include "model/sched/replay_strategy.h"

namespace squashlab {
namespace {

using testing::RunTask;

// --- pages -----------------------------------------------------------------

TEST(PageContract, LegalReadLifecycleIsSilent) {
  EXPECT_SILENT(RunTask([] {
    address_space* m = new_address_space("file");
    page* p = grab_cache_page_nowait(m, 3);
    ASSERT_NE(p, nullptr);
    std::memset(kmap(p), 0, PAGE_SIZE);
    kunmap(p);
    SetPageUptodate(p);
    unlock_page(p);
    page_cache_release(p);
    page* q = find_get_page(m, 3);
    EXPECT_EQ(q, p);
    EXPECT_TRUE(PageUptodate(q));
    page_cache_release(q);
  }));
}

TEST(PageContract, UnlockOfUnlockedPage) {
  Report r = RunTask([] {
    page* p = alloc_page(GFP_KERNEL);
    unlock_page(p);
  });
  EXPECT_REPORT(r, ReportKind::kPageBug);
  EXPECT_NE(r.body.find("VM_BUG_ON_PAGE(!PageLocked(page))"), std::string::npos)
      << r.body;
}

// 6.12's folio_end_read: a locked, !uptodate folio ends its read silently,
// uptodate and unlocked (or only unlocked on failure); a folio found
// unlocked or already uptodate is its VM_BUG_ON_FOLIO, at its source line.
TEST(PageContract, FolioEndReadOfALockedFolioIsSilent) {
  EXPECT_SILENT(RunTask([] {
    address_space* m = new_address_space("file");
    page* ok = grab_cache_page_nowait(m, 1);
    page* failed = grab_cache_page_nowait(m, 2);
    folio_end_read(ok, true);
    folio_end_read(failed, false);
    EXPECT_TRUE(PageUptodate(ok));
    EXPECT_FALSE(PageLocked(ok));
    EXPECT_FALSE(PageUptodate(failed));
    EXPECT_FALSE(PageLocked(failed));
    page_cache_release(ok);
    page_cache_release(failed);
  }));
}

TEST(PageContract, FolioEndReadOfAnUptodateFolio) {
  Report r = RunTask([] {
    address_space* m = new_address_space("file");
    page* p = grab_cache_page_nowait(m, 1);
    SetPageUptodate(p);
    folio_end_read(p, true);
  });
  EXPECT_REPORT(r, ReportKind::kPageBug);
  EXPECT_EQ(r.title, "kernel BUG at mm/filemap.c:1539!");
  EXPECT_EQ(r.contract, "folio_end_read.uptodate");
  EXPECT_NE(r.body.find("VM_BUG_ON_FOLIO(folio_test_uptodate(folio))"),
            std::string::npos)
      << r.body;
}

TEST(PageContract, FolioEndReadOfAnUnlockedFolio) {
  Report r = RunTask([] {
    page* p = alloc_page(GFP_KERNEL);
    folio_end_read(p, false);
  });
  EXPECT_REPORT(r, ReportKind::kPageBug);
  EXPECT_EQ(r.title, "kernel BUG at mm/filemap.c:1538!");
  EXPECT_EQ(r.contract, "folio_end_read.unlocked");
}

// No kernel version asserts the page lock in SetPageUptodate.
TEST(PageContract, SetPageUptodateWithoutLockIsSilent) {
  EXPECT_SILENT(RunTask([] {
    page* p = alloc_page(GFP_KERNEL);
    SetPageUptodate(p);
    put_page(p);
  }));
}

TEST(PageContract, PutPageBelowZero) {
  Report r = RunTask([] {
    page* p = alloc_page(GFP_KERNEL);
    put_page(p);
    put_page(p);
  });
  EXPECT_REPORT(r, ReportKind::kPageBug);
  EXPECT_NE(r.body.find("_count) == 0"), std::string::npos) << r.body;
}

TEST(PageContract, FreedWhileInMappingIsBadPageState) {
  Report r = RunTask([] {
    address_space* m = new_address_space("file");
    page* p = page_cache_alloc(m);
    ASSERT_EQ(add_to_page_cache_lru(p, m, 7, GFP_KERNEL), 0);
    SetPageUptodate(p);
    SetPageError(p);
    unlock_page(p);
    page_cache_release(p);
    page_cache_release(p);  // drops the page cache's reference too
  });
  EXPECT_REPORT(r, ReportKind::kBadPageState);
  EXPECT_NE(r.body.find("BUG: Bad page state in process dd"), std::string::npos)
      << r.body;
  EXPECT_NE(r.body.find("index:0x7"), std::string::npos) << r.body;
  EXPECT_NE(r.body.find("(error|uptodate)"), std::string::npos) << r.body;
}

TEST(PageContract, FreedWhileLockedIsBadPageState) {
  Report r = RunTask([] {
    page* p = alloc_page(GFP_KERNEL);
    ASSERT_TRUE(trylock_page(p));
    put_page(p);
  });
  EXPECT_REPORT(r, ReportKind::kBadPageState);
}

TEST(PageContract, AddExistingIndexReturnsEexist) {
  EXPECT_SILENT(RunTask([] {
    address_space* m = new_address_space("file");
    page* a = page_cache_alloc(m);
    page* b = page_cache_alloc(m);
    ASSERT_EQ(add_to_page_cache_lru(a, m, 1, GFP_KERNEL), 0);
    EXPECT_EQ(add_to_page_cache_lru(b, m, 1, GFP_KERNEL), -EEXIST);
    EXPECT_FALSE(PageLocked(b));
    put_page(b);
    SetPageUptodate(a);
    unlock_page(a);
    put_page(a);
  }));
}

// grab_cache_page_nowait under preempt_disable: 6.x's never sleeps
// (FGP_NOWAIT), 3.13's may (it allocates and adds with reclaim allowed).
TEST(PageContract, GrabCachePageNowaitSleepsOnlyIn313) {
  auto grab_atomic = [] {
    address_space* m = new_address_space("file");
    preempt_disable();
    page* p = grab_cache_page_nowait(m, 0);
    preempt_enable();
    SetPageUptodate(p);
    unlock_page(p);
    page_cache_release(p);
  };
  KernelConfig six;
  six.mm_era = MmEra::k6_12;
  EXPECT_SILENT(RunTask(grab_atomic, six));
  six.mm_era = MmEra::k6_1;
  EXPECT_SILENT(RunTask(grab_atomic, six));
  Report r = RunTask(grab_atomic);  // 3.13
  EXPECT_REPORT(r, ReportKind::kSleepInvalidContext);
}

TEST(PageContract, LockPageWithPreemptionDisabled) {
  Report r = RunTask([] {
    page* p = alloc_page(GFP_KERNEL);
    preempt_disable();
    lock_page(p);  // uncontended: might_sleep's report, no sleep
  });
  EXPECT_REPORT(r, ReportKind::kSleepInvalidContext);
  EXPECT_NE(r.body.find("BUG: sleeping function called from invalid context "
                        "at lock_page"),
            std::string::npos)
      << r.body;
}

TEST(PageContract, SleepingInLockPageWithPreemptionDisabled) {
  KernelConfig prod;  // no might_sleep: the sleep itself is reported
  prod.debug = false;
  Report r = RunTask(
      [] {
        page* p = alloc_page(GFP_KERNEL);
        lock_page(p);
        preempt_disable();
        lock_page(p);  // held: sleeps
      },
      prod);
  EXPECT_REPORT(r, ReportKind::kSchedulingWhileAtomic);
  EXPECT_NE(r.body.find("BUG: scheduling while atomic: dd/"), std::string::npos)
      << r.body;
}

TEST(PageContract, PageLeftLockedAtQuiescence) {
  Report r = RunTask(
      [] {
        address_space* m = new_address_space("file");
        page* p = grab_cache_page_nowait(m, 0);
        SetPageUptodate(p);
        page_cache_release(p);  // forgot unlock_page
      },
      testing::LintConfig());
  EXPECT_REPORT(r, ReportKind::kQuiescence);
  EXPECT_TRUE(r.lint);
  EXPECT_NE(r.title.find("locked"), std::string::npos) << r.title;
}

TEST(PageContract, PageNeitherUptodateNorErrorAtQuiescence) {
  Report r = RunTask(
      [] {
        address_space* m = new_address_space("file");
        page* p = grab_cache_page_nowait(m, 0);
        unlock_page(p);
        page_cache_release(p);
      },
      testing::LintConfig());
  EXPECT_REPORT(r, ReportKind::kQuiescence);
  EXPECT_TRUE(r.lint);
  EXPECT_NE(r.title.find("neither uptodate nor error"), std::string::npos);
}

TEST(PageContract, ErrorPageAtQuiescenceIsLegal) {
  EXPECT_SILENT(RunTask([] {
    address_space* m = new_address_space("file");
    page* p = grab_cache_page_nowait(m, 0);
    SetPageError(p);
    unlock_page(p);
    page_cache_release(p);
  }));
}

TEST(PageContract, PageReferenceLeakAtQuiescence) {
  Report r = RunTask(
      [] {
        address_space* m = new_address_space("file");
        page* p = grab_cache_page_nowait(m, 0);
        SetPageUptodate(p);
        unlock_page(p);
      },
      testing::LintConfig());
  EXPECT_REPORT(r, ReportKind::kLeak);
  EXPECT_TRUE(r.lint);
}

TEST(PageContract, ReclaimEvictsOnlyCleanUnlockedUnusedPages) {
  EXPECT_SILENT(RunTask([] {
    address_space* m = new_address_space("file");
    for (pgoff_t i = 0; i < 3; i++) {
      page* p = grab_cache_page_nowait(m, i);
      SetPageUptodate(p);
      if (i != 1) unlock_page(p);         // page 1 stays locked
      if (i != 2) page_cache_release(p);  // page 2 stays referenced
    }
    EXPECT_EQ(shrink_page_cache(10), 1u);  // only page 0 goes
    EXPECT_EQ(find_get_page(m, 0), nullptr);
    page* p1 = find_get_page(m, 1);
    unlock_page(p1);
    page_cache_release(p1);
    page* p2 = find_get_page(m, 2);
    page_cache_release(p2);
    page_cache_release(p2);
  }));
}

}  // namespace
}  // namespace squashlab
