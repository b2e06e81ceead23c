// SPDX-License-Identifier: GPL-2.0-only
// This file implements tests of 6.x's read fault path (model/mm/
// filemap_fault.h) against mm/memory.c and mm/filemap.c of 6.1 and 6.12:
// fault-around maps only the cached pages that are uptodate, unlocked and
// not PG_readahead, and never sleeps; a miss reads around the fault (ra_pages
// centred on it, none under MADV_RANDOM, where ->read_folio reads the page);
// a page whose ->read_folio fails is SIGBUS after the retried fault read it
// once more; a mapped page stays through reclaim until munmap.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <set>
#include <utility>
#include <vector>

#include "model/kernel/filemap.h"
#include "model/kernel/fs.h"
#include "model/kernel/page.h"
#include "model/kernel/scenario.h"
#include "model/mm/filemap_fault.h"
#include "model/mm/filemap_read.h"
#include "model/sched/explorer.h"
#include "model/sched/strategy.h"
#include "model/tests/fake_page_fs.h"

namespace squashlab {
namespace {

// Adds page idx to the cache, filled (uptodate) or not, unlocked.
page* Cache(inode* ino, unsigned long idx, bool uptodate) {
  page* p = page_cache_alloc(ino->i_mapping);
  add_to_page_cache_lru(p, ino->i_mapping, idx, GFP_KERNEL);
  if (uptodate) {
    std::memset(page_address(p), static_cast<int>(idx & 0xff), PAGE_SIZE);
    SetPageUptodate(p);
  }
  unlock_page(p);
  put_page(p);
  return p;
}

// Runs `body` in one task over a file of `pages` pages; returns the
// run's reports.
std::vector<Report> RunTask(MmEra era, unsigned long pages,
                            std::function<void(inode*)> body) {
  Scenario sc;
  sc.name = "mmap_fault";
  sc.config.mm_era = era;
  sc.setup = [&](Kernel& k) {
    inode* ino = NewFakeFile(k, pages);
    k.Spawn(TaskSpec{"mmap", TaskContext::kProcess, 0, 0, 0,
                     [&, ino] { body(ino); }});
  };
  Explorer explorer;
  auto strategy = MakeRandomStrategy();
  RunResult r = explorer.RunOnce(sc, *strategy, 1, false);
  return r.reports;
}

std::set<unsigned long> Mapped(const vm_area_struct* vma) {
  std::set<unsigned long> s;
  for (const auto& [idx, p] : vma->pte) s.insert(idx);
  return s;
}

class MmapFault : public ::testing::TestWithParam<MmEra> {
 protected:
  void SetUp() override { g_fake_page_fs = &fs_; }
  void TearDown() override { g_fake_page_fs = nullptr; }
  FakePageFs fs_;
};

// Pages 0..15 cached: 4 not uptodate, 6 marked PG_readahead, 9 locked by
// the faulting task itself (a sleeping lock would never return, and would
// be a sleep in atomic context). The fault at page 3 maps the other twelve
// and no file system call is made; the lookups' references are the
// entries' (munmap gives them back: no page left referenced).
TEST_P(MmapFault, FaultAroundMapsOnlyUptodateUnlockedPagesWithoutSleeping) {
  std::set<unsigned long> mapped;
  vm_fault_t ret = 0;
  int count_9 = 0, count_3 = 0;
  auto reports = RunTask(GetParam(), 64, [&](inode* ino) {
    std::vector<page*> pg;
    for (unsigned long i = 0; i < 16; i++) pg.push_back(Cache(ino, i, i != 4));
    SetPageReadahead(pg[6]);
    lock_page(pg[9]);
    file* f = open_file(ino, 32);
    vm_area_struct* vma = mmap_file(f, 0, 64 * PAGE_SIZE);
    ret = handle_mm_fault(vma, 3, FAULT_FLAG_ALLOW_RETRY | FAULT_FLAG_USER);
    mapped = Mapped(vma);
    count_3 = page_count(pg[3]);
    count_9 = page_count(pg[9]);
    unlock_page(pg[9]);
    munmap(vma);
  });
  EXPECT_TRUE(reports.empty()) << reports[0].ToString();
  EXPECT_EQ(ret, VM_FAULT_NOPAGE);
  std::set<unsigned long> want;
  for (unsigned long i = 0; i < 16; i++)
    if (i != 4 && i != 6 && i != 9) want.insert(i);
  EXPECT_EQ(mapped, want);
  EXPECT_EQ(count_3, 2);  // the cache's and the entry's
  EXPECT_EQ(count_9, 1);  // the cache's only
  EXPECT_TRUE(fs_.batches.empty());
  EXPECT_TRUE(fs_.folio_reads.empty());
}

// mapping_mapped (include/linux/fs.h) is true from mmap to the last munmap
// of the file, whoever maps it.
TEST_P(MmapFault, MappingMappedFromMmapToTheLastMunmap) {
  std::vector<bool> seen;
  auto reports = RunTask(GetParam(), 8, [&](inode* ino) {
    address_space* m = ino->i_mapping;
    file* f = open_file(ino, 32);
    seen.push_back(mapping_mapped(m));
    vm_area_struct* a = mmap_file(f, 0, 8 * PAGE_SIZE);
    seen.push_back(mapping_mapped(m));
    vm_area_struct* b = mmap_file(open_file(ino, 32), 0, PAGE_SIZE);
    munmap(a);
    seen.push_back(mapping_mapped(m));
    munmap(b);
    seen.push_back(mapping_mapped(m));
  });
  EXPECT_TRUE(reports.empty()) << reports[0].ToString();
  EXPECT_EQ(seen, (std::vector<bool>{false, true, true, false}));
}

// A cold miss at page 40 of 100: the read-around window {24, 32} (the mark
// at 48), the fault retried after the I/O, then fault-around maps 32..47;
// every byte as the file system wrote it.
TEST_P(MmapFault, MissReadsAroundTheFault) {
  std::set<unsigned long> mapped;
  std::vector<char> buf(PAGE_SIZE);
  vm_fault_t ret = 1;
  auto reports = RunTask(GetParam(), 100, [&](inode* ino) {
    file* f = open_file(ino, 32);
    vm_area_struct* vma = mmap_file(f, 0, 100 * PAGE_SIZE);
    ret = mmap_load(vma, 40 * PAGE_SIZE, buf.data(), buf.size());
    mapped = Mapped(vma);
    munmap(vma);
  });
  EXPECT_TRUE(reports.empty()) << reports[0].ToString();
  EXPECT_EQ(ret, 0u);
  EXPECT_EQ(fs_.batches,
            (std::vector<std::pair<unsigned long, size_t>>{{24, 32}}));
  EXPECT_TRUE(fs_.folio_reads.empty());
  std::set<unsigned long> want;
  for (unsigned long i = 32; i < 48; i++) want.insert(i);
  EXPECT_EQ(mapped, want);
  for (char c : buf) ASSERT_EQ(static_cast<unsigned char>(c), 40u);
}

// MADV_RANDOM: no readahead; the page is created and read by ->read_folio.
TEST_P(MmapFault, RandomAdviceReadsThePageAlone) {
  vm_fault_t ret = 1;
  std::vector<char> buf(PAGE_SIZE);
  auto reports = RunTask(GetParam(), 100, [&](inode* ino) {
    file* f = open_file(ino, 32);
    vm_area_struct* vma = mmap_file(f, 0, 100 * PAGE_SIZE, VM_RAND_READ);
    ret = mmap_load(vma, 70 * PAGE_SIZE, buf.data(), buf.size());
    munmap(vma);
  });
  EXPECT_TRUE(reports.empty()) << reports[0].ToString();
  EXPECT_EQ(ret, 0u);
  EXPECT_TRUE(fs_.batches.empty());
  EXPECT_EQ(fs_.folio_reads, std::vector<unsigned long>({70}));
  for (char c : buf) ASSERT_EQ(static_cast<unsigned char>(c), 70u);
}

// Page 41's read fails: readahead leaves it !uptodate, the first try reads
// it with ->read_folio (and, having dropped the mmap lock, returns RETRY),
// the retry reads it once more and gives up: SIGBUS. Page 40 is fine.
TEST_P(MmapFault, FailingReadFolioIsSigbus) {
  fs_.failing = {41};
  vm_fault_t ok = 1, bad = 0;
  std::vector<char> buf(PAGE_SIZE);
  auto reports = RunTask(GetParam(), 100, [&](inode* ino) {
    file* f = open_file(ino, 32);
    vm_area_struct* vma = mmap_file(f, 0, 100 * PAGE_SIZE);
    ok = mmap_load(vma, 40 * PAGE_SIZE, buf.data(), buf.size());
    bad = mmap_load(vma, 41 * PAGE_SIZE, buf.data(), buf.size());
    munmap(vma);
  });
  EXPECT_TRUE(reports.empty()) << reports[0].ToString();
  EXPECT_EQ(ok, 0u);
  EXPECT_EQ(bad, VM_FAULT_SIGBUS);
  EXPECT_EQ(fs_.folio_reads, std::vector<unsigned long>({41, 41}));
}

// Reclaim (invalidate_mapping_pages) evicts the cached pages nobody maps
// and keeps the mapped ones; after munmap they go too.
TEST_P(MmapFault, MappedPagesSurviveReclaimUntilMunmap) {
  std::vector<unsigned long> after_reclaim, after_munmap;
  auto reports = RunTask(GetParam(), 64, [&](inode* ino) {
    for (unsigned long i = 0; i < 32; i++) Cache(ino, i, true);
    file* f = open_file(ino, 32);
    vm_area_struct* vma = mmap_file(f, 0, 64 * PAGE_SIZE);
    std::vector<char> buf(PAGE_SIZE);
    mmap_load(vma, 3 * PAGE_SIZE, buf.data(), buf.size());  // maps 0..15
    invalidate_mapping_pages(ino->i_mapping, 0, ~0UL);
    for (auto& [idx, p] : ino->i_mapping->page_tree)
      after_reclaim.push_back(idx);
    munmap(vma);
    invalidate_mapping_pages(ino->i_mapping, 0, ~0UL);
    for (auto& [idx, p] : ino->i_mapping->page_tree)
      after_munmap.push_back(idx);
  });
  EXPECT_TRUE(reports.empty()) << reports[0].ToString();
  std::vector<unsigned long> want;
  for (unsigned long i = 0; i < 16; i++) want.push_back(i);
  EXPECT_EQ(after_reclaim, want);
  EXPECT_TRUE(after_munmap.empty());
}

// A fault past the last page is SIGBUS without a file system call.
TEST_P(MmapFault, PastEndOfFileIsSigbus) {
  vm_fault_t ret = 0;
  auto reports = RunTask(GetParam(), 8, [&](inode* ino) {
    file* f = open_file(ino, 32);
    vm_area_struct* vma = mmap_file(f, 0, 16 * PAGE_SIZE);
    char c;
    ret = mmap_load(vma, 8 * PAGE_SIZE, &c, 1);
    munmap(vma);
  });
  EXPECT_TRUE(reports.empty()) << reports[0].ToString();
  EXPECT_EQ(ret, VM_FAULT_SIGBUS);
  EXPECT_TRUE(fs_.batches.empty());
  EXPECT_TRUE(fs_.folio_reads.empty());
}

INSTANTIATE_TEST_SUITE_P(Eras, MmapFault,
                         ::testing::Values(MmEra::k6_1, MmEra::k6_12),
                         [](const auto& info) {
                           return info.param == MmEra::k6_1 ? "linux_6_1"
                                                            : "linux_6_12";
                         });

}  // namespace
}  // namespace squashlab
