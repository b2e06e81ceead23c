// SPDX-License-Identifier: GPL-2.0-only
// This file implements the tests of the lock validator: an ABBA order
// between two mutexes is reported from the schedule that takes the second
// order, without the deadlock happening, within one run or across the
// runs of one campaign; one order is silent. A spinlock class taken in
// hardirq context and with hardirqs on elsewhere is an inconsistent lock
// state, without the interrupt arriving while it is held; taken with
// irqs saved, it is silent.
#include "model/kernel/lockdep.h"

#include <gtest/gtest.h>

#include <memory>

#include "model/kernel/mutex.h"
#include "model/kernel/testing/contract.h"

namespace squashlab {
namespace {

using testing::RunTask;

struct Locks {
  mutex a, b;
};

Locks* NewLocks() {
  Locks* l = Kernel::Current().New<Locks>();
  mutex_init(&l->a);
  mutex_init(&l->b);
  return l;
}

void Take(mutex* first, mutex* second) {
  mutex_lock(first);
  mutex_lock(second);
  mutex_unlock(second);
  mutex_unlock(first);
}

struct Shared {
  spinlock_t lock;
  int done = 0;
};

Shared* NewShared() {
  Shared* s = Kernel::Current().New<Shared>();
  spin_lock_init(&s->lock);
  return s;
}

void SpawnIrqTaking(Shared* s) {
  Kernel::Current().Spawn(
      TaskSpec{"irq", TaskContext::kInterrupt, 1, 0, 0, [s] {
                 spin_lock(&s->lock);
                 s->done = 1;
                 spin_unlock(&s->lock);
               }});
}

TEST(Lockdep, SpinlockInIrqAndWithIrqsOnIsInconsistent) {
  Report r = RunTask([] {
    Shared* s = NewShared();
    spin_lock(&s->lock);  // process context, hardirqs on
    spin_unlock(&s->lock);
    SpawnIrqTaking(s);
  });
  EXPECT_REPORT(r, ReportKind::kLockdep);
  EXPECT_EQ(r.title, "WARNING: inconsistent lock state");
  EXPECT_NE(r.body.find("{HARDIRQ-ON-W} -> {IN-HARDIRQ-W}"), std::string::npos)
      << r.body;
  EXPECT_EQ(r.contract, "lockdep.inconsistent_irq");
}

TEST(Lockdep, SpinlockInIrqAndWithIrqsSavedIsSilent) {
  EXPECT_SILENT(RunTask([] {
    Shared* s = NewShared();
    unsigned long flags = 0;
    spin_lock_irqsave(&s->lock, flags);
    spin_unlock_irqrestore(&s->lock, flags);
    SpawnIrqTaking(s);
  }));
}

// The non-preemptive schedule runs dd to the end: no deadlock can happen.
TEST(Lockdep, AbbaInOneTaskReportedWithoutDeadlock) {
  Report r = RunTask([] {
    Locks* l = NewLocks();
    Take(&l->a, &l->b);
    Take(&l->b, &l->a);
  });
  EXPECT_REPORT(r, ReportKind::kLockdep);
  EXPECT_TRUE(r.warning);
  EXPECT_NE(r.body.find("possible circular locking dependency detected"),
            std::string::npos);
  EXPECT_NE(r.source.find("kernel/locking/lockdep.c"), std::string::npos);
}

TEST(Lockdep, AbbaBetweenTwoTasks) {
  Report r = RunTask([] {
    Locks* l = NewLocks();
    Take(&l->a, &l->b);
    Kernel::Current().Spawn(TaskSpec{"b", TaskContext::kProcess, 1, 0, 0,
                                     [l] { Take(&l->b, &l->a); }});
  });
  EXPECT_REPORT(r, ReportKind::kLockdep);
  EXPECT_EQ(r.task.rfind("b:", 0), 0u) << r.task;
}

// Two runs of one campaign (one config, one graph): the first takes A then
// B, the second B then A; the second is reported.
TEST(Lockdep, GraphKeptAcrossRuns) {
  KernelConfig campaign;
  campaign.lockdep = std::make_shared<LockdepGraph>();
  EXPECT_SILENT(RunTask(
      [] {
        Locks* l = NewLocks();
        Take(&l->a, &l->b);
      },
      campaign));
  Report r = RunTask(
      [] {
        Locks* l = NewLocks();
        Take(&l->b, &l->a);
      },
      campaign);
  EXPECT_REPORT(r, ReportKind::kLockdep);
  // A fresh campaign has no memory of it.
  EXPECT_SILENT(RunTask([] {
    Locks* l = NewLocks();
    Take(&l->b, &l->a);
  }));
}

TEST(Lockdep, OneOrderIsSilent) {
  EXPECT_SILENT(RunTask([] {
    Locks* l = NewLocks();
    Take(&l->a, &l->b);
    Take(&l->a, &l->b);
    mutex_lock(&l->b);
    mutex_unlock(&l->b);
  }));
}

TEST(Lockdep, ProductionKernelHasNoLockdep) {
  KernelConfig prod;
  prod.debug = false;
  EXPECT_SILENT(RunTask(
      [] {
        Locks* l = NewLocks();
        Take(&l->a, &l->b);
        Take(&l->b, &l->a);
      },
      prod));
}

}  // namespace
}  // namespace squashlab
