// SPDX-License-Identifier: GPL-2.0-only
// This file implements the explore executor's per-step helpers, shared by
// its two source files (explore_executor.cc: the run loop; explore_step.cc:
// the scheduling points) and inlined into both: they are on every step's
// path. Private to the executor.
#ifndef SQUASHLAB_MODEL_SCHED_EXPLORE_EXECUTOR_INL_H_
#define SQUASHLAB_MODEL_SCHED_EXPLORE_EXECUTOR_INL_H_

#include <algorithm>

#include "model/sched/explore_executor.h"

#define SQL_ALWAYS_INLINE inline __attribute__((always_inline))

namespace squashlab {

namespace explore_internal {
// What a task gates on its CPU (see Gated), as StepInfo says it.
inline int GateOf(const Task& t) {
  return (t.preempt_count > 0 ? StepInfo::kGatesPreemption : 0) |
         (t.irqs_disabled > 0 ? StepInfo::kGatesInterrupts : 0);
}
// GateOf(t) == before, on every step: almost always nothing is off.
inline bool GateIs(const Task& t, int before) {
  if ((t.preempt_count | t.irqs_disabled | before) == 0) return true;
  return GateOf(t) == before;
}
}  // namespace explore_internal

// Inlined into the two places a step begins (RunSlice, ContinueInline):
// both are on every step's path.
SQL_ALWAYS_INLINE void ExploreExecutor::BeginSlice(Slot* s, bool preempted) {
  if (record_trace_) RecordTraceEvent(*s, preempted);
  s->woken = false;
  steps_++;
  if (!s->task.started) {
    s->task.started = true;
    // A started interrupt handler gates its CPU; a process does not.
    if (s->task.atomic()) enabled_stale_ = true;
  }
  gate_before_ = explore_internal::GateOf(s->task);
}

SQL_ALWAYS_INLINE void ExploreExecutor::PushChoice(int pick) {
  if (nchoices_ == choices_.size()) [[unlikely]]
    GrowChoices();
  choices_[nchoices_++] = pick;
}

// Inlined into Run, PointSlow and WaitEvent.
// The decision goes straight into decision_: a Decision built on the
// stack and copied out field by field was read back whole before its
// stores had landed (a store-forwarding stall on every step).
SQL_ALWAYS_INLINE void ExploreExecutor::Decide(int last, bool last_running) {
  Decision& d = decision_;
  bool last_enabled;
  if (enabled_stale_) {
    RefreshEnabled();
    last_enabled = last >= 0 && std::find(enabled_.begin(), enabled_.end(),
                                          last) != enabled_.end();
  } else if (last_running) {
    last_enabled = true;  // picked from the set, which has not changed
  } else if (enabled_exact_) {
    // The set is the runnable tasks (DropEnabled, AddEnabled keep it so).
    last_enabled =
        last >= 0 && slots_[last]->task.state == TaskState::kRunnable;
  } else {
    last_enabled = last >= 0;  // the set it was picked from, unchanged
  }
  d.preempted = false;
  if (enabled_.empty()) {
    d.kind = Decision::kNoneEnabled;
    d.pick = -1;
    return;
  }
  int pick = enabled_[0];
  if (enabled_.size() > 1) {
    pick = uniform_ != nullptr
               ? enabled_[uniform_->Below(enabled_.size())]
               : strategy_->Pick(enabled_, last, last_enabled, steps_);
    if (pick == Strategy::kAbandonRun) {
      d.kind = Decision::kAbandon;
      d.pick = pick;
      return;
    }
    PushChoice(pick);
  }
  d.kind = Decision::kRun;
  d.pick = pick;
  d.preempted = last_enabled && pick != last;
  if (d.preempted) preemptions_++;
}

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_SCHED_EXPLORE_EXECUTOR_INL_H_
