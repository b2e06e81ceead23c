// SPDX-License-Identifier: GPL-2.0-only
// This file implements the test that a read path which unlocks a page
// before marking it uptodate is caught by its consequence, as on a real
// kernel: the reader that takes the page lock in between finds the page
// !PageUptodate and returns EIO (3.13's do_generic_file_read). No kernel
// check fires (SetPageUptodate has no lock assertion in any version).
#include <gtest/gtest.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <memory>

#include "model/kernel/filemap.h"
#include "model/kernel/fs.h"
#include "model/kernel/page.h"
#include "model/kernel/scenario.h"
#include "model/mm/filemap_read.h"
#include "model/sched/explorer.h"
#include "model/sched/strategy.h"

namespace squashlab {
namespace {

std::atomic<long> g_result{0};

// The completion (on the other CPU) fills the page, unlocks it, and only
// then marks it uptodate: the design under test.
int LateUptodateReadpage(file*, page* p) {
  Kernel::Current().Spawn(
      TaskSpec{"irq/late", TaskContext::kInterrupt, 1, 0, 0, [p] {
                 std::memset(page_address(p), 'x', PAGE_SIZE);
                 unlock_page(p);
                 SetPageUptodate(p);
               }});
  return 0;
}

const address_space_operations kLateOps = [] {
  address_space_operations ops;
  ops.readpage = LateUptodateReadpage;
  return ops;
}();

Scenario LateUptodate() {
  return Scenario{"late_uptodate", {}, [](Kernel& k) {
                    inode* ino = k.New<inode>();
                    ino->i_size = PAGE_SIZE;
                    ino->i_mapping = new_address_space("late");
                    ino->i_mapping->host = ino;
                    ino->i_mapping->a_ops = &kLateOps;
                    k.Spawn(TaskSpec{
                        "dd", TaskContext::kProcess, 0, 0, 0, [ino] {
                          file* f = open_file(ino, 0);
                          static thread_local char buf[PAGE_SIZE];
                          int64_t pos = 0;
                          g_result = generic_file_read(f, buf, PAGE_SIZE, &pos);
                        }});
                  }};
}

TEST(UptodateOrder, UnlockBeforeUptodateIsASpuriousEioNotABug) {
  Explorer explorer;
  Scenario sc = LateUptodate();
  int eio = 0, ok = 0;
  for (uint64_t seed = 1; seed <= 300; seed++) {
    auto strategy = MakeRandomStrategy();
    g_result = 0;
    RunResult r = explorer.RunOnce(sc, *strategy, seed, false);
    EXPECT_TRUE(r.reports.empty()) << r.report.ToString();
    if (g_result == -EIO) eio++;
    if (g_result == static_cast<long>(PAGE_SIZE)) ok++;
  }
  EXPECT_GT(eio, 0) << "no schedule showed the race";
  EXPECT_GT(ok, 0);
}

}  // namespace
}  // namespace squashlab
