// SPDX-License-Identifier: GPL-2.0-only
// This file implements an end-to-end test of the model on a miniature
// asynchronous read in the style of the 2013 patch: buffer heads submitted
// with a private b_end_io, completions in interrupt context, the last one
// scheduling a work item that fills and unlocks the page. The racy way of
// deciding "last" (every completion checks whether all buffers are
// uptodate, as squashfs_buffer_end_io did) is found by exploration through
// the generic checks alone; atomic completion counting is clean under
// exhaustive search with two preemptions.
#include <gtest/gtest.h>

#include <cstring>

#include "model/kernel/atomic.h"
#include "model/kernel/buffer_head.h"
#include "model/kernel/filemap.h"
#include "model/kernel/page.h"
#include "model/kernel/ram_disk.h"
#include "model/kernel/scenario.h"
#include "model/kernel/workqueue.h"
#include "model/sched/explorer.h"
#include "model/sched/threads_executor.h"

namespace squashlab {
namespace {

constexpr int kBlocks = 2;

struct ReadAssoc {
  buffer_head* bh[kBlocks];
  page* target;
  atomic_t pending;
  bool counted;  // the fixed design
  work_struct work;
};

void FillPage(work_struct* w) {
  auto* io = reinterpret_cast<ReadAssoc*>(reinterpret_cast<char*>(w) -
                                          offsetof(ReadAssoc, work));
  kasan_check_read(io, sizeof *io);
  char* dst = static_cast<char*>(kmap(io->target));
  for (int i = 0; i < kBlocks; i++) {
    std::memcpy(dst + i * 1024, io->bh[i]->b_data, 1024);
    put_bh(io->bh[i]);
  }
  std::memset(dst + kBlocks * 1024, 0, PAGE_SIZE - kBlocks * 1024);
  kunmap(io->target);
  SetPageUptodate(io->target);
  unlock_page(io->target);
  put_page(io->target);
  kfree(io);
}

void EndIo(buffer_head* bh, int uptodate) {
  auto* io = static_cast<ReadAssoc*>(bh->b_private);
  if (uptodate) set_buffer_uptodate(bh);
  unlock_buffer(bh);
  bool last = true;
  if (io->counted) {
    last = atomic_dec_and_test(&io->pending);
  } else {
    for (int i = 0; i < kBlocks; i++) last = last && buffer_uptodate(io->bh[i]);
  }
  if (last) schedule_work(&io->work);
}

Scenario AsyncRead(bool counted) {
  return Scenario{
      counted ? "async_read_counted" : "async_read_2013",
      {},
      [counted](Kernel& k) {
        std::vector<unsigned char> medium(8192);
        for (size_t i = 0; i < medium.size(); i++)
          medium[i] = static_cast<unsigned char>(i % 251);
        RamDisk* disk = k.New<RamDisk>(medium);
        disk->set_irq_cpu(-1);  // completions on both CPUs
        auto* sb = k.New<super_block>();
        sb->s_bdev = disk->bdev();
        address_space* mapping = new_address_space("file");
        k.Spawn(TaskSpec{"dd", TaskContext::kProcess, 1, 0, 0, [=] {
                           page* p = grab_cache_page_nowait(mapping, 0);
                           auto* io = static_cast<ReadAssoc*>(
                               kzalloc(sizeof(ReadAssoc), GFP_KERNEL));
                           io->target = p;
                           io->counted = counted;
                           atomic_set(&io->pending, kBlocks);
                           INIT_WORK(&io->work, FillPage);
                           for (int i = 0; i < kBlocks; i++) {
                             io->bh[i] = sb_getblk(sb, 2 + i);
                             io->bh[i]->b_private = io;
                             io->bh[i]->b_end_io = EndIo;
                           }
                           for (int i = 0; i < kBlocks; i++) {
                             lock_buffer(io->bh[i]);
                             submit_bh(READ, io->bh[i]);
                           }
                           // The reader: wait for the page like
                           // generic_file_read does.
                           page* q = find_lock_page(mapping, 0);
                           BUG_ON(!PageUptodate(q));
                           BUG_ON(std::memcmp(page_address(q), &medium[2048],
                                              2048) != 0);
                           unlock_page(q);
                           put_page(q);
                         }});
      }};
}

TEST(Integration, RacyLastCompletionIsFoundByTheGenericChecks) {
  ExploreOptions opt;
  opt.strategy = "pct";
  opt.pct_depth = 2;
  opt.max_runs = 2000;
  Explorer e;
  Scenario sc = AsyncRead(false);
  ExploreResult r = e.Explore(sc, opt);
  ASSERT_TRUE(r.found) << "no violation in " << r.runs << " runs";
  // Both completions see both buffers uptodate: the work is queued once
  // (pending bit) or runs twice; either way a generic check fires.
  EXPECT_NE(r.minimised.report.kind, ReportKind::kAssertion)
      << Explorer::FormatFailure(sc, r);
  std::printf("%s", Explorer::FormatFailure(sc, r).c_str());
}

TEST(Integration, CountedCompletionIsCleanUnderExhaustiveSearch) {
  ExploreOptions opt;
  opt.strategy = "exhaustive";
  opt.preemption_bound = 2;
  opt.max_runs = 200000;
  Explorer e;
  Scenario sc = AsyncRead(true);
  ExploreResult r = e.Explore(sc, opt);
  EXPECT_FALSE(r.found) << Explorer::FormatFailure(sc, r);
  EXPECT_TRUE(r.exhausted) << r.runs;
  std::printf("exhaustive, 2 preemptions: %ld schedules, no violation\n",
              r.runs);
}

// The same scenario on real threads (under --config=tsan, also with
// ThreadSanitizer watching the emulator's own synchronisation).
TEST(Integration, CountedCompletionRunsCleanOnRealThreads) {
  for (int run = 0; run < 20; run++) {
    ThreadsOptions opt;
    opt.seed = run;
    ThreadsExecutor exec(opt);
    ScenarioOutcome out = RunScenario(AsyncRead(true), exec, run);
    EXPECT_TRUE(out.ok()) << out.report.ToString();
  }
}

}  // namespace
}  // namespace squashlab
