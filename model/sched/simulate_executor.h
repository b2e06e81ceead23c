// SPDX-License-Identifier: GPL-2.0-only
// This file implements SimulateExecutor: the same tasks on N simulated CPUs
// in virtual time. Each CPU runs its current task one step at a time; the
// CPU with the earliest clock acts next, so events happen in time order.
// Operations cost virtual time (CostModel); a waking task of higher
// priority preempts the running one at its next scheduling point unless
// that one is non-preemptible (preempt_disable, get_cpu_ptr, a spinlock);
// interrupts preempt anything but an irqs-off section. Deterministic: no
// randomness, ties broken by CPU and task id.
#ifndef SQUASHLAB_MODEL_SCHED_SIMULATE_EXECUTOR_H_
#define SQUASHLAB_MODEL_SCHED_SIMULATE_EXECUTOR_H_

#include <memory>
#include <vector>

#include "model/sched/cost_model.h"
#include "model/sched/executor.h"
#include "model/sched/fiber.h"
#include "model/sched/schedule_trace.h"

namespace squashlab {

struct TaskStats {
  uint64_t max_wakeup_latency_ns = 0;  // ready (woken / timer) -> running
  uint64_t wakeups = 0;
  uint64_t runtime_ns = 0;
};

class SimulateExecutor : public Executor {
 public:
  explicit SimulateExecutor(CostModel cost = CostModel(),
                            bool record_trace = false);
  ~SimulateExecutor() override;

  Task* Spawn(TaskSpec spec) override;
  Task* Current() override { return current_ ? &current_->task : nullptr; }
  void Point(const char* op, uint64_t arg) override;
  void WaitEvent(WaitList& wq, const std::function<bool()>& cond) override;
  void WakeUp(WaitList& wq) override;
  void Charge(CostKind kind, uint64_t units, const char* codec) override;
  void Delay(uint64_t ns) override;
  uint64_t NowNs() override;
  long Steps() override { return steps_; }
  void OnReport() override { stopping_ = true; }
  RunOutcome Run() override;
  const char* Name() const override { return "simulate"; }

  const TaskStats& stats(int task_id) const { return slots_[task_id]->stats; }
  // Every task spawned in this run (ids 0 .. task_count() - 1), done or not.
  int task_count() const { return static_cast<int>(slots_.size()); }
  const Task& task(int task_id) const { return slots_[task_id]->task; }
  ScheduleTrace& trace() { return trace_; }

 private:
  struct Slot {
    Task task;
    std::unique_ptr<Fiber> fiber;
    uint64_t ready_at = 0;
    bool on_cpu = false;  // current, or interrupted on a CPU's stack
    bool woke = false;    // became ready by a wakeup or a timer
    TaskStats stats;
    const char* pending_op = "start";
    uint64_t pending_arg = 0;
  };
  struct Cpu {
    uint64_t now = 0;
    Slot* current = nullptr;
    std::vector<Slot*> interrupted;  // tasks an interrupt preempted
    uint64_t slice_start = 0;
  };
  bool Eligible(const Slot& s, int cpu) const;
  Slot* BestReady(int cpu, uint64_t by) const;
  uint64_t NextActionTime(int cpu) const;
  bool ShouldPreempt(const Cpu& c, const Slot& cand) const;
  void Dispatch(int cpu, Slot* s);
  void Step(int cpu);
  void Vacate(Cpu& c);
  void KillAll();
  void Body(Slot* s);

  CostModel cost_;
  bool record_trace_;
  StackPool stacks_;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::vector<Slot*>
      live_;  // slots not done, in spawn order (what the scans visit)
  std::vector<Cpu> cpus_;
  Slot* current_ = nullptr;
  int current_cpu_ = -1;
  bool stopping_ = false;
  long steps_ = 0;
  ScheduleTrace trace_;
};

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_SCHED_SIMULATE_EXECUTOR_H_
