// SPDX-License-Identifier: GPL-2.0-only
// This file implements Strategy, the interface of the explore executor's
// schedulers: a function from the enabled tasks to the one that runs next
// (after folly's DeterministicSchedule), with hooks for run boundaries.
#ifndef SQUASHLAB_MODEL_SCHED_STRATEGY_H_
#define SQUASHLAB_MODEL_SCHED_STRATEGY_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "model/base/rng.h"
#include "model/sched/task.h"

namespace squashlab {

// One step of the explore executor: `task` ran from its scheduling point
// (the operation `op` on `arg`) up to its next point.
struct StepInfo {
  int task = 0;
  TaskContext context = TaskContext::kProcess;
  const char* op = "";
  uint64_t arg = 0;
  // It created tasks or numbered objects (mutexes, work items): their ids,
  // like task ids, follow creation order.
  bool created = false;
  // The CPU it runs on.
  int cpu = -1;
  // What it turned off, gating other tasks of its CPU: kGatesPreemption
  // (the CPU's other process-context tasks) and kGatesInterrupts (all of
  // them, interrupt handlers included). 0: nothing newly off.
  static constexpr int kGatesPreemption = 1;
  static constexpr int kGatesInterrupts = 2;
  int gates_more = 0;
  // It ended blocked or finished (not at a point where it could go on).
  bool stopped = false;
  bool finished = false;
  // It had an effect beyond the fields its operation names (a report, a
  // page freed to the allocator: Kernel::NoteWideEffect).
  bool wide = false;
  // The wait queues it queued itself on (it found its condition false) and
  // those it woke (whether or not anyone was waiting).
  std::span<const void* const> waited;
  std::span<const void* const> woke;
};

class Strategy {
 public:
  virtual ~Strategy() = default;
  virtual std::string Name() const = 0;
  // Before each run's setup, with that run's seed.
  virtual void BeginRun(uint64_t seed) { (void)seed; }
  virtual void OnSpawn(int task_id) { (void)task_id; }
  // Picks from `enabled` (ascending task ids, size >= 2). `current` is the
  // task that just reached its scheduling point (-1 at the start), and
  // `current_enabled` says whether continuing it is possible (choosing
  // another one is then a preemption). `step` counts every point so far.
  // kAbandonRun instead of a task ends the run there without a verdict (a
  // partitioned search leaving a subtree to another part).
  static constexpr int kAbandonRun = -1;
  virtual int Pick(const std::vector<int>& enabled, int current,
                   bool current_enabled, long step) = 0;
  // After each run; false when the strategy has nothing left to try.
  virtual bool EndRun(long steps) {
    (void)steps;
    return true;
  }
  // After each step of the explore executor (see StepInfo). Returning
  // false abandons the run (partial-order reduction: the schedule is
  // equivalent to one explored elsewhere); it then ends without a report.
  virtual bool OnStep(const StepInfo& step) {
    (void)step;
    return true;
  }
  // Whether OnStep wants to see steps at all. The executor skips the
  // per-step bookkeeping (what a step created, gated, woke) when it does
  // not; a strategy that never looks at steps says so.
  virtual bool WantsSteps() const { return true; }
  // A strategy whose Pick is `enabled[g.Below(enabled.size())]`, one draw
  // of its generator g per choice and nothing else (random), returns g: the
  // explore executor then draws from it itself, the same draws in the same
  // order, without a virtual call on every step. nullptr: Pick decides.
  virtual Rng* UniformPicks() { return nullptr; }
  // After EndRun: whether the run that just ended belongs to this part of
  // a partitioned search (every part walks the top of the tree; a run
  // outside its part counts nowhere).
  virtual bool RunOwned() const { return true; }
};

// The non-preemptive default: keep the current task, else the lowest id.
int NonPreemptivePick(const std::vector<int>& enabled, int current,
                      bool current_enabled);

std::unique_ptr<Strategy> MakeRandomStrategy();
// PCT (Burckhardt et al., ASPLOS 2010): random priorities, depth-1 priority
// change points over an estimate of the run length (learnt from previous
// runs when steps_estimate is 0). Finds a bug of depth d with probability at
// least 1/(n k^(d-1)) per run for n tasks and k steps.
std::unique_ptr<Strategy> MakePctStrategy(int depth, long steps_estimate);
// Follows `choices` at each choice point, then NonPreemptivePick. Records
// whether the run left the given schedule (diverged).
class ReplayStrategy;
std::unique_ptr<ReplayStrategy> MakeReplayStrategy(std::vector<int> choices);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_SCHED_STRATEGY_H_
