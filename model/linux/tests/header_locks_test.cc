// SPDX-License-Identifier: GPL-2.0-only
// This file implements the tests of the header layer's locks under lockdep
// (tests/header_locks.c takes them): a DEFINE_MUTEX lock is of the class of
// its definition, named by it, and a model object of each run's own (a
// second run takes it as the first did); mutex_init's class is named by
// the macro's argument; two locks of one init site are recursion unless
// mutex_lock_nested tells them apart; local_lock is a lock of its own class
// to lockdep.
#include <gtest/gtest.h>

#include <string>

#include "model/kernel/testing/contract.h"
#include "model/linux/bridge/run_state.h"

extern "C" {
void lab_locks_init(void);
void lab_locks_exit(void);
void lab_static_then_dynamic(void);
void lab_dynamic_then_static(void);
void lab_both_dynamic(int nested);
void lab_static_spinlock(void);
void lab_local_then_inner(void);
void lab_inner_then_local(void);
}

namespace squashlab::linux_bridge {
namespace {

Report RunLab(void (*first)(), void (*second)()) {
  return testing::RunTask(
      [first, second] {
        lab_locks_init();
        first();
        second();
        lab_locks_exit();
      },
      {}, [](Kernel& k) { Attach(k); });
}

void Contains(const Report& r, const std::string& part) {
  EXPECT_NE(r.body.find(part), std::string::npos) << part << "\n" << r.body;
}

TEST(HeaderLocks, StaticMutexIsAClassNamedByItsDefinition) {
  Report r = RunLab(lab_static_then_dynamic, lab_dynamic_then_static);
  EXPECT_EQ(r.contract, "lockdep.circular") << r.title << r.body;
  Contains(r, "is trying to acquire lock:\n (lab_static_mutex){+.+.}-{4:4}");
  Contains(r, "(&lab_dynamic[i]){+.+.}-{4:4}");
}

TEST(HeaderLocks, StaticLocksAreEachRunsOwn) {
  for (int run = 0; run < 2; run++)
    EXPECT_SILENT(RunLab(lab_static_then_dynamic, lab_static_spinlock));
}

void Recursive() { lab_both_dynamic(0); }
void Nested() { lab_both_dynamic(1); }
void Nothing() {}

TEST(HeaderLocks, OneInitSiteIsOneClass) {
  Report r = RunLab(Recursive, Nothing);
  EXPECT_EQ(r.title, "WARNING: possible recursive locking detected");
  Contains(r, "(&lab_dynamic[i])");
  EXPECT_SILENT(RunLab(Nested, Nothing));
}

TEST(HeaderLocks, LocalLockIsALockToLockdep) {
  Report r = RunLab(lab_local_then_inner, lab_inner_then_local);
  EXPECT_EQ(r.contract, "lockdep.circular") << r.title << r.body;
  Contains(r, "(&l->llock){+.+.}-{3:3}");
  Contains(r, "(&l->inner){+.+.}-{3:3}");
}

TEST(HeaderLocks, LocalLockInOneOrderIsSilent) {
  EXPECT_SILENT(RunLab(lab_local_then_inner, lab_local_then_inner));
}

}  // namespace
}  // namespace squashlab::linux_bridge
