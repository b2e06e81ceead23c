// SPDX-License-Identifier: GPL-2.0-only
// This file implements the tests of the contract registry and of the
// checks it made faithful: every report cites its kernel source; lint
// findings stay apart from kernel reports; the kernel's own semantics for
// SetPageUptodate, a claimed work item, put_bh / __brelse and the per-CPU
// buffer_head LRU.
#include "model/kernel/checkers/contracts.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "model/kernel/atomic.h"
#include "model/kernel/bh_lru.h"
#include "model/kernel/buffer_head.h"
#include "model/kernel/completion.h"
#include "model/kernel/page.h"
#include "model/kernel/ram_disk.h"
#include "model/kernel/testing/contract.h"
#include "model/kernel/workqueue.h"

namespace squashlab {
namespace {

using testing::RunTask;

TEST(Contracts, RegistryIsCompleteAndCited) {
  std::set<std::string> names;
  for (int i = 0; i < static_cast<int>(Check::kCount); i++) {
    const Contract& c = ContractOf(static_cast<Check>(i));
    EXPECT_EQ(static_cast<int>(c.check), i);
    EXPECT_TRUE(names.insert(c.name).second) << c.name;
    if (c.check == Check::kUnattributed) continue;
    EXPECT_NE(std::string(c.note).size() + std::string(c.file).size(), 0u);
    if (c.cls == CheckClass::kKernel) {
      EXPECT_NE(std::string(c.file), "") << c.name;
      EXPECT_NE(std::string(c.function), "") << c.name;
      EXPECT_NE(std::string(c.macro), "") << c.name;
      EXPECT_NE(std::string(c.versions), "") << c.name;
    } else {
      EXPECT_EQ(std::string(c.file), "") << c.name;
      EXPECT_NE(std::string(c.note), "") << c.name;
    }
  }
  EXPECT_EQ(AllContracts().size(), static_cast<size_t>(Check::kCount));
}

TEST(Contracts, ReportCarriesItsCitation) {
  Report r = RunTask([] {
    page* p = alloc_page(GFP_KERNEL);
    unlock_page(p);
  });
  EXPECT_REPORT(r, ReportKind::kPageBug);
  EXPECT_EQ(r.contract, "unlock_page.unlocked");
  EXPECT_NE(r.source.find("mm/filemap.c unlock_page()"), std::string::npos)
      << r.source;
  EXPECT_NE(r.ToString().find("checked as: mm/filemap.c"), std::string::npos);
  EXPECT_FALSE(r.lint);
}

// A page left locked with nobody waiting: no kernel check says anything.
TEST(Contracts, LintIsApartUnlessAskedFor) {
  auto body = [] {
    page* p = alloc_page(GFP_KERNEL);
    lock_page(p);
  };
  EXPECT_SILENT(RunTask(body));
  KernelConfig lint;
  lint.lint = true;
  Report r = RunTask(body, lint);
  EXPECT_TRUE(r.lint);
  EXPECT_TRUE(r.warning);
  EXPECT_EQ(r.title.rfind("lint: ", 0), 0u) << r.title;
  EXPECT_EQ(r.source.rfind("lint: ", 0), 0u) << r.source;
}

// No kernel version checks the page lock in SetPageUptodate.
TEST(Contracts, SetPageUptodateWithoutLockIsSilent) {
  EXPECT_SILENT(RunTask([] {
    page* p = alloc_page(GFP_KERNEL);
    SetPageUptodate(p);
    put_page(p);
  }));
}

// kmemleak reports unreferenced objects only: a live object at the end of
// a run is lint.
TEST(Contracts, LiveKmallocAtQuiescenceIsLint) {
  auto body = [] { (void)kmalloc(64, GFP_KERNEL); };
  EXPECT_SILENT(RunTask(body));
  KernelConfig lint;
  lint.lint = true;
  Report r = RunTask(body, lint);
  EXPECT_EQ(r.contract, "quiescence.kmalloc_live");
}

struct Job {
  work_struct work;
};

// The handshake lives outside the freed object.
struct Handshake {
  completion started, go;
};
Handshake* g_handshake = nullptr;

void JobFn(work_struct*) {
  complete(&g_handshake->started);
  wait_for_completion(&g_handshake->go);  // no access to the job after this
}

// process_one_work deactivates the object when it claims it: freeing a
// running work item from another task is legal for debugobjects.
TEST(Contracts, FreeingARunningWorkIsNotOdebug) {
  EXPECT_SILENT(RunTask([] {
    g_handshake = Kernel::Current().New<Handshake>();
    init_completion(&g_handshake->started);
    init_completion(&g_handshake->go);
    auto* j = static_cast<Job*>(kzalloc(sizeof(Job), GFP_KERNEL));
    INIT_WORK(&j->work, JobFn);
    schedule_work(&j->work);
    wait_for_completion(&g_handshake->started);
    kfree(j);
    complete(&g_handshake->go);
  }));
}

TEST(Contracts, FreeingAQueuedWorkIsOdebug) {
  Report r = RunTask([] {
    auto* j = static_cast<Job*>(kzalloc(sizeof(Job), GFP_KERNEL));
    INIT_WORK(&j->work, JobFn);
    schedule_work(&j->work);
    kfree(j);
  });
  EXPECT_REPORT(r, ReportKind::kWorkFreedActive);
  EXPECT_NE(r.source.find("lib/debugobjects.c"), std::string::npos);
}

struct Disk {
  RamDisk disk{std::vector<unsigned char>(64 << 10, 0)};
};

// put_bh is a silent atomic_dec; __brelse warns at exactly 0.
TEST(Contracts, PutBhIsSilentBrelseWarns) {
  Disk* d = new Disk;
  EXPECT_SILENT(RunTask([d] {
    buffer_head* bh = __getblk(d->disk.bdev(), 1, 1024);
    put_bh(bh);
    put_bh(bh);  // the LRU's reference: silent
    get_bh(bh);  // back to 1 for the umount's invalidate_bh_lrus
  }));
  Report r = RunTask([d] {
    buffer_head* bh = __getblk(d->disk.bdev(), 1, 1024);
    put_bh(bh);
    put_bh(bh);
    brelse(bh);  // at 0
    get_bh(bh);
  });
  EXPECT_REPORT(r, ReportKind::kBrelseFreeBuffer);
  EXPECT_NE(r.source.find("fs/buffer.c __brelse()"), std::string::npos);
  delete d;
}

// A count put once too often shows when another task's lookup pushes the
// buffer off the per-CPU LRU: the warning is that task's.
TEST(Contracts, LruEvictionWarnsInTheEvictingTask) {
  Disk* d = new Disk;
  Report r = RunTask([d] {
    buffer_head* bh = __getblk(d->disk.bdev(), 1, 1024);
    put_bh(bh);
    put_bh(bh);  // once too often: the LRU's reference is gone
    Kernel::Current().Spawn(
        TaskSpec{"jbd2/sda1", TaskContext::kProcess, 0, 0, 0, [d] {
                   for (int b = 2; b < 2 + BH_LRU_SIZE; b++)
                     brelse(__getblk(d->disk.bdev(), b, 1024));
                 }});
  });
  EXPECT_REPORT(r, ReportKind::kBrelseFreeBuffer);
  EXPECT_EQ(r.task.rfind("jbd2", 0), 0u) << r.task;
  delete d;
}

// try_to_free_buffers frees an idle buffer_head; a stale pointer to it is
// a use-after-free on a debug kernel.
TEST(Contracts, ReclaimedBufferHeadIsUseAfterFree) {
  Disk* d = new Disk;
  Report r = RunTask([d] {
    buffer_head* bh = __getblk(d->disk.bdev(), 1, 1024);
    brelse(bh);
    invalidate_bh_lrus();
    shrink_buffer_heads();
    (void)buffer_uptodate(bh);
  });
  EXPECT_REPORT(r, ReportKind::kUseAfterFree);
  EXPECT_EQ(r.contract, "buffer_head.use_after_free");
  delete d;
}

}  // namespace
}  // namespace squashlab
