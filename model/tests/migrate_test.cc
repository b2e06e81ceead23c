// SPDX-License-Identifier: GPL-2.0-only
// This file implements the tests of page cache migration (migrate.h): a
// migrated folio is replaced by a new one with its bytes and flags and is
// freed; a locked or otherwise referenced folio is left; and under the
// explorer a reader that takes whatever the mapping holds meets the new
// folio !uptodate in both orders, and before its bytes only in 6.1's.
#include "model/mm/migrate.h"

#include <gtest/gtest.h>

#include <cstring>

#include "model/kernel/filemap.h"
#include "model/kernel/kernel.h"
#include "model/kernel/page.h"
#include "model/kernel/slab.h"
#include "model/kernel/testing/contract.h"
#include "model/sched/explorer.h"

namespace squashlab {
namespace {

using testing::RunTask;

constexpr char kByte = 0x5b;

// A cached, uptodate, unlocked page at index 0 of a new mapping, full of
// kByte; the caller's reference dropped (the cache holds one).
address_space* CachedPage() {
  address_space* m = new_address_space("file");
  page* p = alloc_page(GFP_KERNEL);
  std::memset(page_address(p), kByte, PAGE_SIZE);
  EXPECT_EQ(add_to_page_cache_lru(p, m, 0, GFP_KERNEL), 0);
  SetPageUptodate(p);
  unlock_page(p);
  put_page(p);
  return m;
}

TEST(Migrate, ReplacesTheFolioWithItsBytesAndFlagsInEitherOrder) {
  for (MigrateOrder order :
       {MigrateOrder::kCopyFirst, MigrateOrder::kMappingFirst}) {
    EXPECT_SILENT(RunTask([order] {
      address_space* m = CachedPage();
      page* old = find_get_page(m, 0);
      put_page(old);
      EXPECT_EQ(migrate_cached_folio(m, 0, order), 0);
      page* now = find_get_page(m, 0);
      ASSERT_NE(now, nullptr);
      EXPECT_NE(now, old);
      EXPECT_TRUE(PageUptodate(now));
      EXPECT_FALSE(PageLocked(now));
      EXPECT_EQ(now->mapping, m);
      EXPECT_EQ(page_count(now), 2);  // the cache's and this lookup's
      EXPECT_EQ(static_cast<char*>(page_address(now))[PAGE_SIZE - 1], kByte);
      EXPECT_TRUE(old->freed);  // the old folio went back to the allocator
      EXPECT_EQ(migrate_cached_folio(m, 1, order), -ENOENT);
      put_page(now);
    }));
  }
}

TEST(Migrate, LeavesALockedOrReferencedFolio) {
  EXPECT_SILENT(RunTask([] {
    address_space* m = CachedPage();
    page* p = find_get_page(m, 0);  // someone else's reference
    EXPECT_EQ(migrate_cached_folio(m, 0, MigrateOrder::kCopyFirst), -EAGAIN);
    ASSERT_TRUE(trylock_page(p));
    put_page(p);  // only the lock now
    EXPECT_EQ(migrate_cached_folio(m, 0, MigrateOrder::kMappingFirst), -EAGAIN);
    unlock_page(p);
    page* still = find_get_page(m, 0);
    EXPECT_EQ(still, p);
    EXPECT_EQ(page_count(p), 2);
    put_page(still);
  }));
}

// kcompactd migrates index 0 while a reader takes what the mapping holds
// there and looks at it the way squashfs_bio_read_cached would without
// squashfs_get_cache_page's PageUptodate check. `check_uptodate` says
// whether it also fails on a !uptodate page (the window) or only on
// bytes that are not the page's (the window before the copy).
Scenario MigrationRace(MigrateOrder order, bool check_uptodate) {
  return Scenario{
      "migration_race", KernelConfig{}, [order, check_uptodate](Kernel& k) {
        k.Spawn(TaskSpec{
            "setup", TaskContext::kProcess, 0, 0, 0, [order, check_uptodate] {
              address_space* m = CachedPage();
              Kernel& kk = Kernel::Current();
              kk.Spawn(
                  TaskSpec{"kcompactd0", TaskContext::kProcess, 1, 0, 0,
                           [m, order] { migrate_cached_folio(m, 0, order); }});
              kk.Spawn(TaskSpec{
                  "reader", TaskContext::kProcess, 0, 0, 0,
                  [m, check_uptodate] {
                    page* p = find_get_page(m, 0);
                    if (p == nullptr) return;
                    if (check_uptodate) BUG_ON(!PageUptodate(p));
                    BUG_ON(static_cast<char*>(page_address(p))[0] != kByte);
                    put_page(p);
                  }});
            }});
      }};
}

ExploreResult ExploreExhaustively(const Scenario& sc) {
  ExploreOptions opt;
  opt.strategy = "exhaustive";
  opt.preemption_bound = 2;
  opt.max_runs = 100000;
  opt.minimise = false;
  Explorer e;
  return e.Explore(sc, opt);
}

TEST(Migrate, TheNewFolioIsInTheMappingNotUptodateInBothOrders) {
  for (MigrateOrder order :
       {MigrateOrder::kCopyFirst, MigrateOrder::kMappingFirst}) {
    ExploreResult r = ExploreExhaustively(MigrationRace(order, true));
    EXPECT_TRUE(r.found) << "the window was never explored";
  }
}

TEST(Migrate, ItsBytesAreMissingOnlyIn61sOrder) {
  ExploreResult early =
      ExploreExhaustively(MigrationRace(MigrateOrder::kMappingFirst, false));
  EXPECT_TRUE(early.found) << "no reader met the new folio before its copy";
  ExploreResult late =
      ExploreExhaustively(MigrationRace(MigrateOrder::kCopyFirst, false));
  EXPECT_FALSE(late.found) << late.failure.report.ToString();
  EXPECT_TRUE(late.exhausted) << late.runs << " runs";
}

}  // namespace
}  // namespace squashlab
