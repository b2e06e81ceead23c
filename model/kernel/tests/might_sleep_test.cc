// SPDX-License-Identifier: GPL-2.0-only
// This file implements the tests of might_sleep: every function that can
// sleep, called in atomic context (preemption off, a spinlock held, irqs
// off, an interrupt handler), is reported by a debug kernel on the first
// schedule that runs it, whether or not it sleeps that time; a production
// kernel reports only a task that really sleeps there.
#include <gtest/gtest.h>

#include <vector>

#include "model/kernel/bio.h"
#include "model/kernel/mutex.h"
#include "model/kernel/page.h"
#include "model/kernel/preempt.h"
#include "model/kernel/ram_disk.h"
#include "model/kernel/testing/contract.h"

namespace squashlab {
namespace {

using testing::RunTask;

void ExpectMightSleep(const Report& r, const char* fn) {
  EXPECT_REPORT(r, ReportKind::kSleepInvalidContext);
  EXPECT_TRUE(r.warning);
  EXPECT_NE(r.title.find(fn), std::string::npos) << r.title;
  EXPECT_NE(r.body.find("BUG: sleeping function called from invalid context"),
            std::string::npos);
  EXPECT_NE(r.source.find("kernel/sched/core.c __might_sleep()"),
            std::string::npos);
}

TEST(MightSleep, GfpKernelUnderGetCpuPtr) {
  Report r = RunTask([] {
    auto* pcpu = alloc_percpu<int>();
    int* mine = get_cpu_ptr(pcpu);
    void* p = kmalloc(64, GFP_KERNEL);  // no sleep happens: still reported
    *mine = 1;
    put_cpu_ptr(pcpu);
    kfree(p);
  });
  ExpectMightSleep(r, "kmalloc");
}

TEST(MightSleep, GfpKernelUnderSpinlock) {
  Report r = RunTask([] {
    spinlock_t* l = Kernel::Current().New<spinlock_t>();
    spin_lock_init(l);
    spin_lock(l);
    void* p = kzalloc(64, GFP_NOFS);
    spin_unlock(l);
    kfree(p);
  });
  ExpectMightSleep(r, "kmalloc");
}

TEST(MightSleep, GfpAtomicUnderSpinlockIsSilent) {
  EXPECT_SILENT(RunTask([] {
    spinlock_t* l = Kernel::Current().New<spinlock_t>();
    spin_lock_init(l);
    spin_lock(l);
    void* p = kmalloc(64, GFP_ATOMIC);
    spin_unlock(l);
    kfree(p);
  }));
}

TEST(MightSleep, GfpKernelWithIrqsOff) {
  Report r = RunTask([] {
    unsigned long flags;
    local_irq_save(flags);
    void* p = kcalloc(4, 16, GFP_KERNEL);
    local_irq_restore(flags);
    kfree(p);
  });
  ExpectMightSleep(r, "kmalloc");
}

struct EndIoState {
  RamDisk disk{std::vector<unsigned char>(8192, 0)};
  char buf[1024];
};

void AllocatingEndIo(bio* b, int) {
  void* p = kmalloc(32, GFP_KERNEL);  // in the device's interrupt handler
  kfree(p);
  bio_put(b);
}

TEST(MightSleep, GfpKernelInBioEndIo) {
  auto* st = new EndIoState;
  Report r = RunTask([st] {
    bio* b = bio_alloc(GFP_NOIO, 1);
    b->bi_bdev = st->disk.bdev();
    b->bi_sector = 0;
    b->bi_io_vec.push_back(bio_vec{nullptr, st->buf, 1024, 0});
    b->bi_size = 1024;
    b->bi_end_io = AllocatingEndIo;
    submit_bio(READ, b);
  });
  ExpectMightSleep(r, "kmalloc");
  EXPECT_EQ(r.task.rfind("irq/", 0), 0u) << r.task;
  delete st;
}

// An uncontended mutex_lock does not sleep: might_sleep's warning, not
// "scheduling while atomic".
TEST(MightSleep, MutexUnderPreemptDisable) {
  Report r = RunTask([] {
    mutex* m = Kernel::Current().New<mutex>();
    mutex_init(m);
    preempt_disable();
    mutex_lock(m);
    mutex_unlock(m);
    preempt_enable();
  });
  ExpectMightSleep(r, "mutex_lock");
}

TEST(MightSleep, MsleepUnderPreemptDisableSchedules) {
  Report r = RunTask([] {
    preempt_disable();
    msleep(1);
    preempt_enable();
  });
  // The warning first, then the sleep itself.
  ExpectMightSleep(r, "msleep");
}

TEST(MightSleep, ProductionKernelReportsOnlyARealSleep) {
  KernelConfig prod;
  prod.debug = false;
  EXPECT_SILENT(RunTask(
      [] {
        preempt_disable();
        void* p = kmalloc(64, GFP_KERNEL);
        preempt_enable();
        kfree(p);
      },
      prod));
  Report r = RunTask(
      [] {
        preempt_disable();
        msleep(1);
        preempt_enable();
      },
      prod);
  EXPECT_REPORT(r, ReportKind::kSchedulingWhileAtomic);
}

TEST(MightSleep, ProcessContextIsSilent) {
  EXPECT_SILENT(RunTask([] {
    void* p = kmalloc(64, GFP_KERNEL);
    page* pg = alloc_page(GFP_KERNEL);
    put_page(pg);
    kfree(p);
  }));
}

}  // namespace
}  // namespace squashlab
