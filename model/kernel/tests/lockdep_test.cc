// SPDX-License-Identifier: GPL-2.0-only
// This file implements the tests of the lock validator: an ABBA order
// between two mutexes is reported from the schedule that takes the second
// order, without the deadlock happening, within one run or across the
// runs of one campaign; one order is silent. A spinlock class taken in
// hardirq context and with hardirqs on elsewhere is an inconsistent lock
// state, without the interrupt arriving while it is held; taken with
// irqs saved, or only in hardirq context, it is silent. Two locks of one
// class are recursion unless annotated nested; an order from a class taken
// in hardirq context to one taken with hardirqs on is reported at the
// order, or at the usage that comes after it (the irq inversion).
#include "model/kernel/checkers/lockdep.h"

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

TEST(Lockdep, SpinlockOnlyInHardirqIsSilent) {
  EXPECT_SILENT(RunTask([] {
    Shared* s = NewShared();
    SpawnIrqTaking(s);
    SpawnIrqTaking(s);
  }));
}

struct Pair {
  mutex m[2];
  spinlock_t l[2];
};

Pair* NewPair() {  // one init site: one class for both locks of a kind
  Pair* p = Kernel::Current().New<Pair>();
  for (int i = 0; i < 2; i++) {
    mutex_init(&p->m[i], "pair.c", 1, "&p->m");
    spin_lock_init(&p->l[i], "pair.c", 2, "&p->l");
  }
  return p;
}

TEST(Lockdep, TwoLocksOfOneClassAreRecursive) {
  Report r = RunTask([] {
    Pair* p = NewPair();
    mutex_lock(&p->m[0]);
    mutex_lock(&p->m[1]);
    mutex_unlock(&p->m[1]);
    mutex_unlock(&p->m[0]);
  });
  EXPECT_REPORT(r, ReportKind::kLockdep);
  EXPECT_EQ(r.title, "WARNING: possible recursive locking detected");
  EXPECT_EQ(r.contract, "lockdep.recursive");
  EXPECT_NE(r.body.find("(&p->m){+.+.}-{4:4}"), std::string::npos) << r.body;
  EXPECT_NE(r.body.find("May be due to missing lock nesting notation"),
            std::string::npos);
  EXPECT_NE(r.body.find("1 lock held by dd"), std::string::npos) << r.body;
}

TEST(Lockdep, NestingAnnotationIsNotRecursion) {
  EXPECT_SILENT(RunTask([] {
    Pair* p = NewPair();
    mutex_lock(&p->m[0]);
    mutex_lock_nested(&p->m[1], 1);
    mutex_unlock(&p->m[1]);
    mutex_unlock(&p->m[0]);
    spin_lock(&p->l[0]);
    spin_lock_nested(&p->l[1], 1);
    spin_unlock(&p->l[1]);
    spin_unlock(&p->l[0]);
  }));
}

TEST(Lockdep, SpinlocksOfOneClassAreRecursive) {
  Report r = RunTask([] {
    Pair* p = NewPair();
    spin_lock(&p->l[0]);
    spin_lock(&p->l[1]);
    spin_unlock(&p->l[1]);
    spin_unlock(&p->l[0]);
  });
  EXPECT_EQ(r.contract, "lockdep.recursive");
  EXPECT_NE(r.body.find("(&p->l){+.+.}-{3:3}"), std::string::npos) << r.body;
}

struct Two {
  spinlock_t a, b;
};

Two* NewTwo() {
  Two* t = Kernel::Current().New<Two>();
  spin_lock_init(&t->a, "two.c", 1, "&t->a");
  spin_lock_init(&t->b, "two.c", 2, "&t->b");
  return t;
}

void SpawnIrq(std::function<void()> body) {
  Kernel::Current().Spawn(
      TaskSpec{"irq", TaskContext::kInterrupt, 1, 0, 0, std::move(body)});
}

void AThenBIrqsOff(Two* t) {
  unsigned long flags = 0;
  spin_lock_irqsave(&t->a, flags);
  spin_lock(&t->b);
  spin_unlock(&t->b);
  spin_unlock_irqrestore(&t->a, flags);
}

void TakeWithIrqsOn(spinlock_t* l) {
  spin_lock(l);
  spin_unlock(l);
}

// b is hardirq-unsafe, a hardirq-safe; then the order a -> b.
TEST(Lockdep, HardirqSafeToUnsafeOrder) {
  Report r = RunTask([] {
    Two* t = NewTwo();
    TakeWithIrqsOn(&t->b);
    SpawnIrq([t] { TakeWithIrqsOn(&t->a); });
    Kernel::Current().Point("after the irq", 0);
    Kernel::Current().Spawn(TaskSpec{"late", TaskContext::kProcess, 1, 0, 0,
                                     [t] { AThenBIrqsOff(t); }});
  });
  EXPECT_EQ(r.contract, "lockdep.irq_safe_to_unsafe") << r.title << r.body;
  EXPECT_EQ(r.title,
            "WARNING: HARDIRQ-safe -> HARDIRQ-unsafe lock order detected");
  EXPECT_NE(r.body.find("which would create a new lock dependency:\n "
                        "(&t->a){-...}-{3:3} -> (&t->b){+.+.}-{3:3}"),
            std::string::npos)
      << r.body;
  EXPECT_NE(r.body.find("Possible interrupt unsafe locking scenario"),
            std::string::npos);
}

// The order a -> b first (irqs off: no usage), then b with irqs on, then
// a in hardirq context: a's new usage contradicts the order.
TEST(Lockdep, IrqInversionAtTheLaterUsage) {
  Report r = RunTask([] {
    Two* t = NewTwo();
    AThenBIrqsOff(t);
    TakeWithIrqsOn(&t->b);
    SpawnIrq([t] { TakeWithIrqsOn(&t->a); });
  });
  EXPECT_EQ(r.contract, "lockdep.irq_inversion") << r.title << r.body;
  EXPECT_EQ(r.title,
            "WARNING: possible irq lock inversion dependency detected");
  EXPECT_NE(r.body.find("but this lock took another, HARDIRQ-unsafe lock in "
                        "the past:\n (&t->b)"),
            std::string::npos)
      << r.body;
}

// The same locks with both orders taken only with irqs off: no usage, no
// report.
TEST(Lockdep, OrderWithoutUnsafeUsageIsSilent) {
  EXPECT_SILENT(RunTask([] {
    Two* t = NewTwo();
    AThenBIrqsOff(t);
    SpawnIrq([t] { TakeWithIrqsOn(&t->a); });
  }));
}

TEST(Lockdep, CircularReportAsLockdepPrintsIt) {
  Report r = RunTask([] {
    Locks* l = Kernel::Current().New<Locks>();
    mutex_init(&l->a, "abba.c", 1, "&l->a");
    mutex_init(&l->b, "abba.c", 2, "&l->b");
    Take(&l->a, &l->b);
    Take(&l->b, &l->a);
  });
  EXPECT_EQ(r.contract, "lockdep.circular");
  for (const char* part :
       {"is trying to acquire lock:\n (&l->a){+.+.}-{4:4}, at: ",
        "but task is already holding lock:\n (&l->b){+.+.}-{4:4}",
        "the existing dependency chain (in reverse order) is:\n\n-> #1 "
        "(&l->b)",
        "-> #0 (&l->a)", "other info that might help us debug this:",
        "  lock(&l->b);\n                               lock(&l->a);",
        " *** DEADLOCK ***", "1 lock held by dd:"})
    EXPECT_NE(r.body.find(part), std::string::npos) << part << "\n" << r.body;
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
