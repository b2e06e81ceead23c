// SPDX-License-Identifier: GPL-2.0-only
// This file implements the tests of host faults landing in the task that
// caused them (model/sched/task_fault.h): a load, a store or a call through
// a pointer no model check flags, a stack overflow, a division by zero and
// an invalid opcode each end the faulting task with the oops the kernel
// prints, on the explore, simulate and threads executors, and the process
// goes on to the next run; a fault outside any task still kills it.
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <cstdint>
#include <functional>
#include <string>

#include "model/kernel/scenario.h"
#include "model/kernel/testing/contract.h"
#include "model/sched/simulate_executor.h"
#include "model/sched/task_fault.h"
#include "model/sched/threads_executor.h"

namespace squashlab {
namespace {

using testing::RunTask;

// A page no one can touch: its address is canonical and in the user half,
// so Kernel::CheckPtr lets it pass, and the CPU faults on it.
char* NoAccessPage() {
  static char* page = [] {
    void* m =
        mmap(nullptr, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return m == MAP_FAILED ? nullptr : static_cast<char*>(m);
  }();
  return page;
}

// Kept out of line and opaque so that the compiler cannot see the faults.
[[gnu::noinline]] int LoadAt(volatile const int* p) { return *p; }
[[gnu::noinline]] void StoreAt(volatile int* p) { *p = 1; }
// Deep enough to overflow any task stack; the depth bound keeps the
// compiler from calling it infinite.
[[gnu::noinline]] int Recurse(int depth, int limit) {
  volatile char frame[512];
  frame[0] = static_cast<char>(depth);
  if (depth == limit) return frame[0];
  return Recurse(depth + 1, limit) + frame[0];
}
// Not through UBSan (it would report the division first, in sanitizer builds;
// the spelling gcc and clang both know).
[[gnu::noinline]] __attribute__((no_sanitize("undefined"))) int Divide(int a,
                                                                       int b) {
  volatile int x = a, y = b;
  volatile int q = x / y;  // volatile: the division is not dropped
  return q;
}

// Calls fn, not as a tail call (the return address names this function).
[[gnu::noinline]] int CallThrough(void (*fn)()) {
  volatile int after = 1;
  fn();
  return after;
}

bool Has(const Report& r, const std::string& text) {
  return r.ToString().find(text) != std::string::npos;
}

class HostFault : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!TaskFaultLandingEnabled())
      GTEST_SKIP() << "no fault landing in this build (ThreadSanitizer)";
    ASSERT_NE(NoAccessPage(), nullptr);
  }
};

TEST_F(HostFault, LoadThroughAnUnmappedPointerIsAPagingRequest) {
  const int* p = reinterpret_cast<const int*>(NoAccessPage() + 0x28);
  Report r = RunTask([p] { LoadAt(p); });
  EXPECT_REPORT(r, ReportKind::kGeneralProtection);
  EXPECT_EQ(r.contract, "fault.unmapped");
  char at[32];
  std::snprintf(at, sizeof at, "%016lx",
                static_cast<unsigned long>(reinterpret_cast<uintptr_t>(p)));
  EXPECT_TRUE(Has(r, std::string("paging request at ") + at)) << r.ToString();
  EXPECT_TRUE(Has(r, "LoadAt")) << r.ToString();
  EXPECT_EQ(r.task, "dd:0");
}

TEST_F(HostFault, StoreIsCaughtToo) {
  int* p = reinterpret_cast<int*>(NoAccessPage());
  Report r = RunTask([p] { StoreAt(p); });
  EXPECT_EQ(r.contract, "fault.unmapped") << r.ToString();
}

TEST_F(HostFault, CallThroughACorruptPointerIsAnInstructionFetch) {
  auto fn = reinterpret_cast<void (*)()>(NoAccessPage() + 0x100);
  Report r = RunTask([fn] { CallThrough(fn); });
  EXPECT_EQ(r.contract, "fault.unmapped") << r.ToString();
  EXPECT_TRUE(Has(r, "Oops: 0010")) << r.ToString();
  // No function at the target: the caller names the report.
  EXPECT_NE(r.title.find("in CallThrough"), std::string::npos) << r.title;
}

TEST_F(HostFault, CallThroughNullNamesTheCaller) {
  void (*volatile fn)() = nullptr;
  Report r = RunTask([&fn] { CallThrough(fn); });
  EXPECT_REPORT(r, ReportKind::kNullDereference);
  EXPECT_TRUE(Has(r, "IP: [<0000000000000000>] (null)")) << r.ToString();
  EXPECT_NE(r.title.find("in CallThrough"), std::string::npos) << r.title;
}

TEST_F(HostFault, NullPageThatNoCheckSawIsANullDereference) {
  Report r = RunTask([] { LoadAt(reinterpret_cast<const int*>(0x10)); });
  EXPECT_REPORT(r, ReportKind::kNullDereference);
  EXPECT_TRUE(Has(r, "NULL pointer dereference at 0000000000000010"))
      << r.ToString();
}

TEST_F(HostFault, NonCanonicalAddressIsAGeneralProtectionFault) {
  Report r = RunTask(
      [] { LoadAt(reinterpret_cast<const int*>(0x6b6b6b6b6b6b6b68ULL)); });
  EXPECT_EQ(r.contract, "fault.general_protection") << r.ToString();
}

TEST_F(HostFault, StackOverflowHitsTheGuardPage) {
  Report r = RunTask([] { Recurse(0, 1 << 30); });
  EXPECT_EQ(r.contract, "fault.stack_guard") << r.ToString();
  EXPECT_REPORT(r, ReportKind::kCpuException);
}

TEST_F(HostFault, DivisionByZeroIsADivideError) {
  Report r = RunTask([] { Divide(1, 0); });
  EXPECT_EQ(r.contract, "trap.divide_error") << r.ToString();
  EXPECT_TRUE(Has(r, "divide error: 0000")) << r.ToString();
}

TEST_F(HostFault, TrapIsAnInvalidOpcode) {
  Report r = RunTask([] { __builtin_trap(); });
  EXPECT_EQ(r.contract, "trap.invalid_opcode") << r.ToString();
}

// The task after the faulting one, and the next run, are unharmed: the
// landing is gone, the alternate stack is still there.
TEST_F(HostFault, RunsAfterAFaultAreClean) {
  const int* p = reinterpret_cast<const int*>(NoAccessPage());
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(RunTask([p] { LoadAt(p); }).contract, "fault.unmapped");
    EXPECT_SILENT(RunTask([] {}));
  }
  int x = 7;
  EXPECT_SILENT(RunTask([&x] { StoreAt(&x); }));
  EXPECT_EQ(x, 1);
}

// The second task faults while the first sleeps: the report names the
// faulting task, and the run ends.
TEST_F(HostFault, TheFaultingTaskIsTheOneReported) {
  const int* p = reinterpret_cast<const int*>(NoAccessPage());
  Explorer explorer;
  Scenario sc{"two", {}, [p](Kernel& k) {
                k.Spawn(TaskSpec{"dd", TaskContext::kProcess, 0, 0, 0,
                                 [] { Kernel::Current().Point("a", 0); }});
                k.Spawn(TaskSpec{"reader", TaskContext::kProcess, 1, 0, 0,
                                 [p] { LoadAt(p); }});
              }};
  ReplayStrategy replay({});
  Report r = explorer.RunOnce(sc, replay, 1, false).report;
  EXPECT_EQ(r.contract, "fault.unmapped") << r.ToString();
  EXPECT_EQ(r.task, "reader:1");
}

// The teardown at quiescence runs outside every task, on the thread that
// drives the run: a fault there is an oops with no task.
TEST_F(HostFault, AFaultInAQuiescenceHookIsReportedWithNoTask) {
  const int* p = reinterpret_cast<const int*>(NoAccessPage());
  Report r = RunTask([] {}, {},
                     [p](Kernel& k) { k.AtQuiescence([p] { LoadAt(p); }); });
  EXPECT_EQ(r.contract, "fault.unmapped") << r.ToString();
  EXPECT_EQ(r.task, "");
  EXPECT_SILENT(RunTask([] {}));
}

Scenario Faulting(const int* p) {
  return Scenario{"fault", {}, [p](Kernel& k) {
                    k.Spawn(TaskSpec{"dd", TaskContext::kProcess, 0, 0, 0,
                                     [p] { LoadAt(p); }});
                  }};
}

TEST_F(HostFault, SimulateExecutorLandsToo) {
  const int* p = reinterpret_cast<const int*>(NoAccessPage());
  SimulateExecutor exec;
  ScenarioOutcome o = RunScenario(Faulting(p), exec, 1);
  EXPECT_EQ(o.report.contract, "fault.unmapped") << o.report.ToString();
}

TEST_F(HostFault, ThreadsExecutorLandsToo) {
  const int* p = reinterpret_cast<const int*>(NoAccessPage());
  ThreadsExecutor exec;
  ScenarioOutcome o = RunScenario(Faulting(p), exec, 1);
  EXPECT_EQ(o.report.contract, "fault.unmapped") << o.report.ToString();
}

TEST_F(HostFault, AFaultOutsideEveryTaskStillKillsTheProcess) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const int* p = reinterpret_cast<const int*>(NoAccessPage());
  // Killed by SIGSEGV; in sanitizer builds, by the sanitizer's report.
  EXPECT_DEATH(
      {
        RunTask([] {});  // installs the handler
        LoadAt(p);
      },
      "");
}

}  // namespace
}  // namespace squashlab
