// SPDX-License-Identifier: GPL-2.0-only
// This file implements tests of 6.x's MM (model/mm/filemap_read_6x.h,
// readahead_6x.h) against the behaviour of mm/filemap.c and mm/readahead.c
// in 6.1 and 6.12: the windows a sequential reader gets, the batch split at
// a page already cached, read_pages' clean-up of pages the file system left
// (the async part dropped from the cache, the rest read again through
// ->read_folio), and an I/O error: the short read, then EIO and the window
// shrunk to a quarter.
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>
#include <utility>
#include <vector>

#include "model/kernel/filemap.h"
#include "model/kernel/fs.h"
#include "model/kernel/page.h"
#include "model/kernel/scenario.h"
#include "model/mm/file_read.h"
#include "model/mm/filemap_read.h"
#include "model/sched/explorer.h"
#include "model/sched/strategy.h"
#include "model/tests/fake_page_fs.h"

namespace squashlab {
namespace {

struct ReadLog {
  std::vector<long> results;
  std::vector<char> bytes;
  unsigned ra_pages_after = 0;
  std::vector<unsigned long> cached_after;
};

// One reader: `reads` sequential reads of bs bytes from offset `from` of
// a file of `pages` pages, after `pre` is read alone through ->read_folio.
ReadLog ReadFile(MmEra era, unsigned long pages, size_t bs, int reads,
                 uint64_t from = 0, std::set<unsigned long> pre = {}) {
  ReadLog log;
  Scenario sc;
  sc.name = "mm6x";
  sc.config.mm_era = era;
  sc.setup = [&](Kernel& k) {
    inode* ino = NewFakeFile(k, pages);
    k.Spawn(TaskSpec{
        "dd", TaskContext::kProcess, 0, 0, 0, [&, ino] {
          for (unsigned long idx : pre) {
            page* p = page_cache_alloc(ino->i_mapping);
            add_to_page_cache_lru(p, ino->i_mapping, idx, GFP_KERNEL);
            FakeReadFolio(nullptr, p);
            put_page(p);
          }
          g_fake_page_fs->folio_reads.clear();
          file* f = open_file(ino, 32);
          int64_t pos = static_cast<int64_t>(from);
          std::vector<char> buf(bs);
          for (int i = 0; i < reads; i++) {
            long got = mm_file_read(f, buf.data(), bs, &pos);
            log.results.push_back(got);
            if (got > 0)
              log.bytes.insert(log.bytes.end(), buf.begin(), buf.begin() + got);
          }
          log.ra_pages_after = f->f_ra.ra_pages;
          for (auto& [idx, p] : ino->i_mapping->page_tree)
            log.cached_after.push_back(idx);
        }});
  };
  Explorer explorer;
  auto strategy = MakeRandomStrategy();
  RunResult r = explorer.RunOnce(sc, *strategy, 1, false);
  EXPECT_TRUE(r.reports.empty()) << r.report.ToString();
  return log;
}

using Batches = std::vector<std::pair<unsigned long, size_t>>;

class Mm6x : public ::testing::TestWithParam<MmEra> {
 protected:
  void SetUp() override { g_fake_page_fs = &fs_; }
  void TearDown() override { g_fake_page_fs = nullptr; }
  FakePageFs fs_;
};

// 4K reads from the start: 4 pages (mark on page 1), then each marked page
// (the first of each window from the second on) starts the next window,
// ramping x2 up to ra_pages; reading page 92 starts the window at 124.
TEST_P(Mm6x, SequentialWindowsRampUp) {
  ReadLog log = ReadFile(GetParam(), 256, 4096, 100);
  Batches want = {{0, 4},   {4, 8},   {12, 16}, {28, 32},
                  {60, 32}, {92, 32}, {124, 32}};
  EXPECT_EQ(fs_.batches, want);
  EXPECT_TRUE(fs_.folio_reads.empty());
  ASSERT_EQ(log.bytes.size(), 100u * 4096);
  for (size_t i = 0; i < log.bytes.size(); i++)
    ASSERT_EQ(static_cast<unsigned char>(log.bytes[i]), (i >> 12) & 0xff)
        << "at " << i;
}

// A 128K read at offset 0: the whole window at once, marked half-way, so
// the first read already starts the next window; the second read hits that
// window's mark on its first page.
TEST_P(Mm6x, FullWindowReadMarksItsSecondHalf) {
  ReadFile(GetParam(), 256, 128 * 1024, 2);
  Batches want = {{0, 32}, {32, 32}, {64, 32}};
  EXPECT_EQ(fs_.batches, want);
}

// A cached page inside the window ends the batch; the rest is another.
TEST_P(Mm6x, CachedPageSplitsTheBatch) {
  ReadFile(GetParam(), 256, 4096, 1, 0, {2});
  Batches want = {{0, 2}, {3, 1}};
  EXPECT_EQ(fs_.batches, want);
}

// ->readahead takes one page of a 4-page window {0, 4, async 3}: the three
// pages it left are all in the async part, so read_pages drops them from
// the cache (and the window shrinks to what was read).
TEST_P(Mm6x, PagesLeftInTheAsyncPartAreDropped) {
  fs_.take = 1;
  ReadLog log = ReadFile(GetParam(), 64, 4096, 1);
  EXPECT_EQ(fs_.batches, (Batches{{0, 4}}));
  EXPECT_EQ(log.cached_after, std::vector<unsigned long>({0}));
}

// An 8-page read: window {0, 16, async 8}; ->readahead takes page 0 only.
// Pages 1..8 (the async part) are dropped, 9..15 stay in the cache
// unlocked and !uptodate; the reader still gets every byte right, and
// whatever is left at the end is unlocked.
TEST_P(Mm6x, PagesLeftInTheSyncPartStayForReadFolio) {
  fs_.take = 1;
  ReadLog log = ReadFile(GetParam(), 64, 8 * 4096, 8);
  ASSERT_GE(fs_.batches.size(), 2u);
  EXPECT_EQ(fs_.batches[0], (std::pair<unsigned long, size_t>{0, 16}));
  // Page 9, the first of the pages left, is read through ->read_folio.
  EXPECT_NE(std::find(fs_.folio_reads.begin(), fs_.folio_reads.end(), 9u),
            fs_.folio_reads.end());
  ASSERT_EQ(log.bytes.size(), 64u * 4096);
  for (size_t i = 0; i < log.bytes.size(); i++)
    ASSERT_EQ(static_cast<unsigned char>(log.bytes[i]), (i >> 12) & 0xff)
        << "at " << i;
}

// A page whose read fails: the first read retries it through ->read_folio
// twice (filemap_read loops after a short batch) and returns the bytes
// before it; the next read fails on it with EIO. Each failed ->read_folio
// shrinks the window to a quarter.
TEST_P(Mm6x, FailedPageIsRetriedThenEio) {
  fs_.failing = {5};
  ReadLog log = ReadFile(GetParam(), 64, 8 * 4096, 2);
  ASSERT_EQ(log.results.size(), 2u);
  EXPECT_EQ(log.results[0], 5 * 4096);
  EXPECT_EQ(log.results[1], -EIO);
  EXPECT_EQ(fs_.folio_reads, std::vector<unsigned long>({5, 5, 5}));
  EXPECT_EQ(log.ra_pages_after, 32u / 4 / 4 / 4);
}

INSTANTIATE_TEST_SUITE_P(Eras, Mm6x,
                         ::testing::Values(MmEra::k6_1, MmEra::k6_12),
                         [](const auto& info) {
                           return info.param == MmEra::k6_1 ? "v6_1" : "v6_12";
                         });

}  // namespace
}  // namespace squashlab
