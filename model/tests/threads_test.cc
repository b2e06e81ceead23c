// SPDX-License-Identifier: GPL-2.0-only
// This file implements the threads executor's tests: correct programs run
// clean on real threads, hangs and reports surface, and under
// --config=tsan the planted data race is reported by ThreadSanitizer while
// its correct twin is silent.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "model/kernel/testing/planted.h"
#include "model/sched/threads_executor.h"

#if defined(__SANITIZE_THREAD__)
#define SQL_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SQL_TSAN 1
#endif
#endif

namespace squashlab {
namespace {

TEST(Threads, CorrectTwinsRunCleanOnRealThreads) {
  for (auto make : {testing::LostUpdate, testing::OrderViolation,
                    testing::AtomicityDepth3, testing::Deadlock}) {
    Scenario sc = make(true, 2);
    for (int run = 0; run < 5; run++) {
      ThreadsOptions opt;
      opt.seed = run;
      ThreadsExecutor exec(opt);
      ScenarioOutcome out = RunScenario(sc, exec, run);
      EXPECT_TRUE(out.ok()) << sc.name << "\n" << out.report.ToString();
      EXPECT_GT(out.run.steps, 4);
    }
  }
}

TEST(Threads, ASleeperNobodyWakesIsAHungTask) {
  Scenario sc{"hang", {}, [](Kernel& k) {
                auto* wq = k.New<wait_queue_head_t>();
                k.Spawn(testing::Proc(
                    "dd", [wq] { wait_event(*wq, [] { return false; }); }));
              }};
  ThreadsOptions opt;
  opt.hang_ms = 50;
  ThreadsExecutor exec(opt);
  ScenarioOutcome out = RunScenario(sc, exec, 1);
  EXPECT_EQ(out.report.kind, ReportKind::kHungTask) << out.report.ToString();
}

TEST(Threads, AReportStopsTheRun) {
  Scenario sc{"report", {}, [](Kernel& k) {
                k.Spawn(testing::Proc(
                    "dd", [] { unlock_page(alloc_page(GFP_KERNEL)); }));
                k.Spawn(testing::Proc("spin", [] {
                  for (;;) model_point("spin");  // ends when the run stops
                }));
              }};
  ThreadsExecutor exec;
  ScenarioOutcome out = RunScenario(sc, exec, 1);
  EXPECT_EQ(out.report.kind, ReportKind::kPageBug) << out.report.ToString();
}

// complete()'s guarantee (kernel/sched/completion.c holds the wait queue's
// lock across done++ and the wake-up): a waiter that sees the update cannot
// return, and free the object holding the wait queue (submit_bio_wait's
// completion lives on the waiter's stack), while the waker still uses it.
struct SlowWake {
  std::atomic<bool> cond{false}, update_done{false}, early{false};
};

TEST(Threads, AWaiterReturnsOnlyAfterTheWakeUpIsDone) {
  for (int run = 0; run < 5; run++) {
    SlowWake st;
    Scenario sc{
        "wake-after", {}, [&st](Kernel& k) {
          auto* wq = k.New<wait_queue_head_t>();
          k.Spawn(testing::Proc("waiter", [&st, wq] {
            Kernel::Current().Sleep(
                *wq, [&st] { return st.cond.load(); }, "wait", 0);
            if (!st.update_done.load()) st.early.store(true);
          }));
          k.Spawn(testing::Proc("waker", [&st, wq] {
            // Let the waiter go to sleep first.
            std::this_thread::sleep_for(std::chrono::milliseconds(3));
            Kernel::Current().WakeAfter(
                *wq,
                [](void* p) {
                  auto* s = static_cast<SlowWake*>(p);
                  s->cond.store(true);
                  // Longer than the waiter's re-check period.
                  std::this_thread::sleep_for(std::chrono::milliseconds(5));
                  s->update_done.store(true);
                },
                &st);
          }));
        }};
    ThreadsExecutor exec;
    ScenarioOutcome out = RunScenario(sc, exec, run);
    EXPECT_TRUE(out.ok()) << out.report.ToString();
    EXPECT_TRUE(st.cond.load());
    EXPECT_FALSE(st.early.load())
        << "the waiter returned while the wake-up was still running";
  }
}

[[maybe_unused]] std::string RunRaceProgram(const char* mode, int* status) {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  std::string bin = std::string(srcdir ? srcdir : ".") +
                    "/squashlab/model/tests/threads_race_main";
  std::string out;
  FILE* p = popen((bin + " " + mode + " 2>&1").c_str(), "r");
  if (p == nullptr) return "popen failed";
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  *status = pclose(p);
  return out;
}

TEST(ThreadsTsan, PlantedRaceIsReportedAndTwinIsSilent) {
#ifndef SQL_TSAN
  GTEST_SKIP() << "needs ThreadSanitizer: bazel test --config=tsan "
                  "//model/tests:threads_test";
#else
  int status = 0;
  std::string race = RunRaceProgram("race", &status);
  EXPECT_NE(race.find("WARNING: ThreadSanitizer: data race"), std::string::npos)
      << race;
  EXPECT_NE(race.find("threads_race_main"), std::string::npos) << race;
  std::string twin = RunRaceProgram("twin", &status);
  EXPECT_EQ(twin.find("ThreadSanitizer"), std::string::npos) << twin;
  EXPECT_EQ(status, 0) << twin;
  EXPECT_NE(twin.find("tsan_twin: no report"), std::string::npos) << twin;
#endif
}

}  // namespace
}  // namespace squashlab
