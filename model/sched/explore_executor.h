// SPDX-License-Identifier: GPL-2.0-only
// This file implements ExploreExecutor: tasks run one at a time as fibers;
// every kernel-API call is a scheduling point where a Strategy picks who
// runs next. Per run it records the choices (for replay tokens), the
// preemptions, and optionally the ScheduleTrace.
#ifndef SQUASHLAB_MODEL_SCHED_EXPLORE_EXECUTOR_H_
#define SQUASHLAB_MODEL_SCHED_EXPLORE_EXECUTOR_H_

#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "model/sched/executor.h"
#include "model/sched/fiber.h"
#include "model/sched/schedule_trace.h"
#include "model/sched/strategy.h"

namespace squashlab {

class ExploreExecutor : public Executor {
 public:
  ExploreExecutor();
  ~ExploreExecutor() override;

  // Starts a new run: forgets all tasks. Call before the scenario's setup.
  void Reset(Strategy* strategy, bool record_trace);

  Task* Spawn(TaskSpec spec) override;
  Task* Current() override { return running_; }
  void Point(const char* op, uint64_t arg) override;
  void WaitEvent(WaitList& wq, const std::function<bool()>& cond) override;
  void WakeUp(WaitList& wq) override;
  void Charge(CostKind, uint64_t, const char*) override {}
  void Delay(uint64_t) override { Point("delay", 0); }
  uint64_t NowNs() override { return static_cast<uint64_t>(steps_); }
  long Steps() override { return steps_; }
  void OnReport() override { stopping_ = true; }
  RunOutcome Run() override;
  const char* Name() const override { return "explore"; }

  std::span<const int> choices() const { return {choices_.data(), nchoices_}; }
  int preemptions() const { return preemptions_; }
  // Fiber switches (a resume and the suspend back). A step whose task the
  // strategy picks again continues without one (ContinueInline).
  long switches() const { return switches_; }
  // The strategy abandoned this run (Strategy::OnStep returned false).
  bool abandoned() const override { return abandoned_; }
  ScheduleTrace& trace() { return trace_; }

 private:
  struct Slot {
    Task task;
    std::optional<Fiber> fiber;  // in place: no allocation per task
    const char* pending_op = "start";
    uint64_t pending_arg = 0;
    bool woken = false;
  };
  // Recomputes enabled_; Run calls it only when a step changed what it
  // depends on (a task spawned, blocked, woken, finished, started, or
  // gating its CPU: enabled_stale_).
  void RefreshEnabled();
  std::unique_ptr<Slot> NewSlot();
  // t blocked or woke: out of / into enabled_ (or enabled_ made stale).
  void DropEnabled(const Task& t);
  void AddEnabled(const Task& t);
  bool Gated(const Slot& s) const;
  // The scheduler's choice once a task reached its point: run `pick` (a
  // preemption when `preempted`), or end the run.
  struct Decision {
    enum Kind { kRun, kNoneEnabled, kAbandon } kind = kRun;
    int pick = -1;
    bool preempted = false;
  };
  // Into decision_. last_running: `last` is the running task at its
  // point (so in an unchanged set).
  void Decide(int last, bool last_running = false);
  void PushChoice(int pick);
  void GrowChoices();
  // Steps from the task `id`'s point on, until the scheduler is needed
  // again (Point may run further steps, of it and of others, without it).
  // Returns the task whose step ran last.
  int RunSlice(int id, bool preempted);
  void BeginSlice(Slot* s, bool preempted);
  void RecordTraceEvent(const Slot& s, bool preempted);
  // Resumes s's fiber until a fiber comes back to the scheduler; returns
  // that task's slot (a finished task is done).
  Slot* Switch(Slot* s);
  // At a point of the running task s (Point): the scheduler's next
  // decision, made there. True when it is s again and its step has begun
  // (no switch: the step's order and effects are the same). Otherwise
  // Point switches to the chosen task directly, or hands the decision to
  // Run (handoff_).
  bool ContinueInline(Slot* s);
  // Point's paths other than its fast one: the full decision at the
  // point, and the way out when s does not go on (the switch, or the
  // scheduler).
  void PointSlow(Slot* s);
  void LeavePoint(Slot* s);
  // From s, its step over: runs the task decision_ picked in its place.
  void HandOver(Slot* s);
  // RunSlice's step for strategies that watch steps (Strategy::OnStep).
  void ObservedSlice(Slot* s);
  void ReportHang(RunHooks& kernel);
  void KillAll();
  void Body(Slot* s);

  StackPool stacks_;
  Strategy* strategy_ = nullptr;
  bool record_trace_ = false;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::vector<std::unique_ptr<Slot>> spare_;  // earlier runs' (NewSlot)
  // The running task (running_ is its Task: Executor::Running()).
  Slot* current_ = nullptr;
  void SetCurrent(Slot* s) {
    current_ = s;
    running_ = s != nullptr ? &s->task : nullptr;
  }
  bool stopping_ = false;
  bool abandoned_ = false;
  std::vector<const void*> step_waited_, step_woke_;  // this step's wait queues
  long steps_ = 0;
  long switches_ = 0;
  int preemptions_ = 0;
  // The run's choices are choices_[0, nchoices_); the vector is storage,
  // grown by PushChoice and kept across runs.
  std::vector<int> choices_;
  size_t nchoices_ = 0;
  std::vector<int> enabled_;
  bool enabled_stale_ = true;
  // enabled_ is exactly the runnable tasks: nothing gated a CPU when it
  // was last rebuilt, and nothing has since (else enabled_stale_).
  bool enabled_exact_ = false;
  bool wants_steps_ = false;      // strategy_->WantsSteps(), for this run
  Rng* uniform_ = nullptr;        // strategy_->UniformPicks(), for this run
  bool continue_inline_ = false;  // decisions may be made in Point
  bool fast_points_ = false;      // and uniform ones without a call
  bool handoff_ = false;          // decision_ was made in Point
  Decision decision_;
  int gate_before_ = 0;  // GateOf the running task when its step began
  long max_steps_ = 0;
  ScheduleTrace trace_;
};

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_SCHED_EXPLORE_EXECUTOR_H_
