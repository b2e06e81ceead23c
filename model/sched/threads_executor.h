// SPDX-License-Identifier: GPL-2.0-only
// This file implements ThreadsExecutor: every task is a real std::thread and
// the tasks run truly concurrently — no baton passing, whose hand-offs
// would be happens-before edges that hide races from ThreadSanitizer. Page
// and buffer flags are real atomics; the variant's own fields stay plain
// memory, as in the kernel. Waits are real condition-variable sleeps; a run
// where every live task sleeps for hang_ms is reported as a hung task.
#ifndef SQUASHLAB_MODEL_SCHED_THREADS_EXECUTOR_H_
#define SQUASHLAB_MODEL_SCHED_THREADS_EXECUTOR_H_

#include <atomic>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "model/sched/executor.h"

namespace squashlab {

struct ThreadsOptions {
  int hang_ms = 200;             // all live tasks asleep this long: a hang
  uint64_t delay_divisor = 100;  // Delay(ns) sleeps ns / divisor real time
  int yield_one_in = 4;          // at a point, yield the CPU with this odds
  uint64_t seed = 1;
};

class ThreadsExecutor : public Executor {
 public:
  explicit ThreadsExecutor(ThreadsOptions opt = ThreadsOptions());
  ~ThreadsExecutor() override;

  Task* Spawn(TaskSpec spec) override;
  Task* Current() override;
  void Point(const char* op, uint64_t arg) override;
  void WaitEvent(WaitList& wq, const std::function<bool()>& cond) override;
  void WakeUp(WaitList& wq) override;
  void Charge(CostKind, uint64_t, const char*) override {}
  void Delay(uint64_t ns) override;
  uint64_t NowNs() override;
  bool Concurrent() const override { return true; }
  long Steps() override { return steps_.load(std::memory_order_relaxed); }
  void OnReport() override { stopping_.store(true); }
  RunOutcome Run() override;
  const char* Name() const override { return "threads"; }
  void PreemptOff(Task& t) override;
  void PreemptOn(Task& t) override;

 private:
  struct Slot;
  void Start(Slot* s);
  void Body(Slot* s);
  bool Hung() const;

  ThreadsOptions opt_;
  std::mutex slots_mu_;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::vector<std::unique_ptr<std::timed_mutex>> cpu_locks_;
  std::atomic<bool> running_{false};
  std::atomic<bool> stopping_{false};
  std::atomic<int> live_{0};
  std::atomic<int> asleep_{0};
  std::atomic<long> steps_{0};
  std::chrono::steady_clock::time_point start_;
};

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_SCHED_THREADS_EXECUTOR_H_
