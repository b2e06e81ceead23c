// SPDX-License-Identifier: GPL-2.0-only
// This file implements the contract tests of kmalloc/kfree, work items and
// execution contexts (preemption, per-CPU data, local locks, mutexes).
#include <gtest/gtest.h>

#include "model/kernel/atomic.h"
#include "model/kernel/checkers/kmemleak.h"
#include "model/kernel/completion.h"
#include "model/kernel/kernel.h"
#include "model/kernel/mutex.h"
#include "model/kernel/page.h"
#include "model/kernel/preempt.h"
#include "model/kernel/testing/contract.h"
#include "model/kernel/workqueue.h"

namespace squashlab {
namespace {

using testing::RunTask;

struct Assoc {
  int b_count;
  page* target;
  work_struct read_work;
};

TEST(MemoryContract, LegalAllocFreeIsSilent) {
  EXPECT_SILENT(RunTask([] {
    auto* a = static_cast<Assoc*>(kzalloc(sizeof(Assoc), GFP_KERNEL));
    a->b_count = 3;
    kasan_check_read(a, sizeof *a);
    kfree(a);
    kfree(nullptr);
  }));
}

TEST(MemoryContract, DoubleFree) {
  Report r = RunTask([] {
    void* p = kmalloc(32, GFP_KERNEL);
    kfree(p);
    kfree(p);
  });
  EXPECT_REPORT(r, ReportKind::kDoubleFree);
}

TEST(MemoryContract, UseAfterFreeThroughKasanCheck) {
  Report r = RunTask([] {
    auto* a = static_cast<Assoc*>(kzalloc(sizeof(Assoc), GFP_KERNEL));
    kfree(a);
    kasan_check_read(&a->b_count, sizeof a->b_count);
  });
  EXPECT_REPORT(r, ReportKind::kUseAfterFree);
}

TEST(MemoryContract, PoisonedPointerFromFreedObject) {
  Report r = RunTask([] {
    auto* a = static_cast<Assoc*>(kzalloc(sizeof(Assoc), GFP_KERNEL));
    a->target = alloc_page(GFP_KERNEL);
    page* keep = a->target;
    kfree(a);
    put_page(keep);
    lock_page(a->target);  // reads 0x6b6b6b6b6b6b6b6b
  });
  EXPECT_REPORT(r, ReportKind::kGeneralProtection);
  EXPECT_NE(r.title.find("lock_page"), std::string::npos);
}

TEST(MemoryContract, UninitialisedPointerField) {
  Report r = RunTask([] {
    auto* a = static_cast<Assoc*>(kmalloc(sizeof(Assoc), GFP_KERNEL));
    unlock_page(a->target);  // never initialised: 0x5a5a5a5a5a5a5a5a
  });
  EXPECT_REPORT(r, ReportKind::kUninitValue);
}

TEST(MemoryContract, NullPageIsNullDereference) {
  Report r = RunTask([] { SetPageUptodate(nullptr); });
  EXPECT_REPORT(r, ReportKind::kNullDereference);
  EXPECT_NE(
      r.body.find("BUG: unable to handle kernel NULL pointer dereference"),
      std::string::npos);
}

TEST(MemoryContract, LeakAtQuiescence) {
  // kmemleak reports only what no pointer reaches: lint here.
  EXPECT_SILENT(RunTask([] { (void)kmalloc(48, GFP_KERNEL); }));
  Report r =
      RunTask([] { (void)kmalloc(48, GFP_KERNEL); }, testing::LintConfig());
  EXPECT_REPORT(r, ReportKind::kLeak);
  EXPECT_TRUE(r.lint);
  EXPECT_NE(r.body.find("unreferenced object"), std::string::npos);
}

// Once a super block is gone (a real tree's unmount), kmemleak's scan
// judges what is left: an object nothing reaches is its report; one a root
// (a module's data) points into, directly or through another object, is
// not; a cycle no root reaches is reported.
void* g_root_slot[2];  // stands for a module's data: a root of the scan

TEST(MemoryContract, KmemleakAfterUnmountReportsOnlyUnreferenced) {
  KmemleakAddRoot(reinterpret_cast<uintptr_t>(g_root_slot), sizeof g_root_slot);
  Report r = RunTask([] {
    struct Node {
      void* next;
      char pad[24];
    };
    auto* kept = static_cast<Node*>(kzalloc(sizeof(Node), GFP_KERNEL));
    auto* chained = static_cast<Node*>(kzalloc(sizeof(Node), GFP_KERNEL));
    kept->next = chained->pad + 3;  // an interior pointer counts
    g_root_slot[0] = kept;
    auto* a = static_cast<Node*>(kzalloc(sizeof(Node), GFP_KERNEL));
    auto* b = static_cast<Node*>(kzalloc(sizeof(Node), GFP_KERNEL));
    a->next = b;
    b->next = a;  // a cycle nothing reaches
    (void)kmalloc(64, GFP_KERNEL);
    Kernel::Current().NoteSuperBlockGone();
  });
  g_root_slot[0] = nullptr;
  EXPECT_REPORT(r, ReportKind::kLeak);
  EXPECT_FALSE(r.lint);
  EXPECT_EQ(r.contract, "kmemleak.unreferenced");
  EXPECT_NE(r.body.find("3 new suspected memory leaks"), std::string::npos)
      << r.body;
}

TEST(MemoryContract, KmemleakSilentWhenARootReachesEverything) {
  KmemleakAddRoot(reinterpret_cast<uintptr_t>(g_root_slot), sizeof g_root_slot);
  EXPECT_SILENT(RunTask([] {
    g_root_slot[1] = kmalloc(40, GFP_KERNEL);
    Kernel::Current().NoteSuperBlockGone();
  }));
  g_root_slot[1] = nullptr;
}

// --- work items
// ---------------------------------------------------------------

void FreeOwnContainer(work_struct* w) {
  Assoc* a = reinterpret_cast<Assoc*>(reinterpret_cast<char*>(w) -
                                      offsetof(Assoc, read_work));
  kfree(a);
}

TEST(WorkContract, WorkFreeingItsOwnContainerIsLegal) {
  EXPECT_SILENT(RunTask([] {
    auto* a = static_cast<Assoc*>(kzalloc(sizeof(Assoc), GFP_KERNEL));
    INIT_WORK(&a->read_work, FreeOwnContainer);
    EXPECT_TRUE(schedule_work(&a->read_work));
  }));
}

void Nothing(work_struct*) {}

TEST(WorkContract, FreeingAQueuedWorkItem) {
  Report r = RunTask([] {
    auto* a = static_cast<Assoc*>(kzalloc(sizeof(Assoc), GFP_KERNEL));
    INIT_WORK(&a->read_work, Nothing);
    schedule_work(&a->read_work);
    kfree(a);  // the worker has not run yet under the non-preemptive schedule
  });
  EXPECT_REPORT(r, ReportKind::kWorkFreedActive);
}

TEST(WorkContract, PendingWorkIsNotQueuedTwiceAndFlushWaits) {
  EXPECT_SILENT(RunTask([] {
    auto* a = static_cast<Assoc*>(kzalloc(sizeof(Assoc), GFP_KERNEL));
    INIT_WORK(&a->read_work, Nothing);
    EXPECT_TRUE(schedule_work(&a->read_work));
    EXPECT_FALSE(schedule_work(&a->read_work));
    EXPECT_TRUE(flush_work(&a->read_work));
    EXPECT_FALSE(work_pending(&a->read_work));
    kfree(a);
  }));
}

// --- contexts
// -----------------------------------------------------------------

TEST(ContextContract, MutexInInterruptContext) {
  Report r = RunTask([] {
    static mutex m;
    mutex_init(&m);
    Kernel::Current().Spawn(TaskSpec{"irq/test", TaskContext::kInterrupt, 0,
                                     100, 0, [] { mutex_lock(&m); }});
  });
  EXPECT_REPORT(r, ReportKind::kSleepInvalidContext);
  EXPECT_NE(r.body.find("in_interrupt(): 1"), std::string::npos) << r.body;
}

TEST(ContextContract, MutexUnlockByNonOwner) {
  Report r = RunTask([] {
    static mutex m;
    mutex_init(&m);
    mutex_unlock(&m);
  });
  EXPECT_REPORT(r, ReportKind::kBadContext);
}

TEST(ContextContract, SmpProcessorIdInPreemptibleCode) {
  Report r = RunTask([] { (void)smp_processor_id(); });
  EXPECT_REPORT(r, ReportKind::kBadContext);
  EXPECT_NE(r.body.find("in preemptible [00000000] code: dd/"),
            std::string::npos);
}

struct Stream {
  int uses = 0;
};

TEST(ContextContract, GetCpuPtrIsLegalAndSleepingInsideIsNot) {
  EXPECT_SILENT(RunTask([] {
    percpu<Stream>* s = alloc_percpu<Stream>();
    Stream* st = get_cpu_ptr(s);
    st->uses++;
    put_cpu_ptr(st);
    EXPECT_EQ(preempt_count(), 0);
    free_percpu(s);
  }));
  Report r = RunTask([] {
    percpu<Stream>* s = alloc_percpu<Stream>();
    static mutex m;
    mutex_init(&m);
    Stream* st = get_cpu_ptr(s);
    mutex_lock(&m);  // the percpu decompressor sleeping: a bug
    put_cpu_ptr(st);
  });
  EXPECT_REPORT(r, ReportKind::kSleepInvalidContext);
}

TEST(ContextContract, LocalLockSleepsOnlyOnPreemptRt) {
  auto body = [] {
    static DEFINE_LOCAL_IRQ_LOCK(stream_lock);
    static mutex m;
    mutex_init(&m);
    percpu<Stream>* s = alloc_percpu<Stream>();
    Stream* st = get_locked_ptr(stream_lock, s);
    mutex_lock(&m);  // sleeping inside the local lock
    mutex_unlock(&m);
    put_locked_ptr(stream_lock, st);
    free_percpu(s);
  };
  KernelConfig rt;
  rt.preempt_rt = true;
  EXPECT_SILENT(RunTask(body, rt));
  EXPECT_REPORT(RunTask(body), ReportKind::kSleepInvalidContext);
}

// kmap_atomic: preemption off (a mutex inside is scheduling while atomic);
// on PREEMPT_RT only migration, so the holder may take a sleeping lock.
TEST(ContextContract, KmapAtomicDisablesPreemptionExceptOnPreemptRt) {
  auto body = [] {
    static mutex m;
    mutex_init(&m);
    page* p = alloc_page(GFP_KERNEL);
    void* addr = kmap_atomic(p);
    (void)smp_processor_id();  // legal either way: migration is off
    mutex_lock(&m);
    mutex_unlock(&m);
    kunmap_atomic(addr);
    put_page(p);
  };
  KernelConfig rt;
  rt.preempt_rt = true;
  EXPECT_SILENT(RunTask(body, rt));
  EXPECT_REPORT(RunTask(body), ReportKind::kSleepInvalidContext);
}

TEST(ContextContract, PreemptEnableUnderflow) {
  EXPECT_REPORT(RunTask([] { preempt_enable(); }), ReportKind::kBadContext);
}

TEST(ContextContract, SleepingForeverIsAHungTask) {
  Report r = RunTask([] {
    static wait_queue_head_t wq;
    static atomic_t flag;
    wait_event(wq, [] { return flag.counter.load() != 0; });
  });
  EXPECT_REPORT(r, ReportKind::kHungTask);
  EXPECT_NE(r.body.find("INFO: task dd:0 blocked for more than 120 seconds."),
            std::string::npos)
      << r.body;
}

TEST(ContextContract, CompletionWakesTheWaiter) {
  EXPECT_SILENT(RunTask([] {
    static completion done;
    init_completion(&done);
    Kernel::Current().Spawn(TaskSpec{"irq/x", TaskContext::kInterrupt, 1, 100,
                                     0, [] { complete(&done); }});
    wait_for_completion(&done);
  }));
}

}  // namespace
}  // namespace squashlab
