// SPDX-License-Identifier: GPL-2.0-only
// This file implements the explore executor's scheduling points: the
// decision made at a task's point, the switch from task to task, and
// blocking and waking, which keep the enabled set up to date.
#include "model/sched/explore_executor.h"
#include "model/sched/explore_executor_inl.h"
#include "model/sched/wait_list.h"

namespace squashlab {

void ExploreExecutor::GrowChoices() {
  choices_.resize(std::max<size_t>(256, 2 * choices_.size()));
}

// Inside task s, at its point: what the scheduler would do once s
// suspended (the end of the step, the step limit, the next decision), done
// here. When the decision is s itself, its next step starts without a
// switch; otherwise the decision is handed over with the switch.
SQL_ALWAYS_INLINE bool ExploreExecutor::ContinueInline(Slot* s) {
  if (!explore_internal::GateIs(s->task, gate_before_)) {
    enabled_stale_ = true;
    gate_before_ = explore_internal::GateOf(s->task);
  }
  if (stopping_ || steps_ > max_steps_) return false;  // Run decides
  Decide(s->task.id, true);
  if (decision_.kind != Decision::kRun || decision_.pick != s->task.id) {
    handoff_ = true;
    return false;
  }
  // BeginSlice(s, ...) for a task already running: started, and its gate
  // is gate_before_ now.
  if (record_trace_) RecordTraceEvent(*s, decision_.preempted);
  s->woken = false;
  steps_++;
  return true;
}

// From task s, whose step has ended: the task decision_ picked (not s)
// starts its step here, and its fiber runs in s's place (Switch learns
// from current_ who comes back). Returns when s runs again.
SQL_ALWAYS_INLINE void ExploreExecutor::HandOver(Slot* s) {
  handoff_ = false;
  Slot* next = slots_[decision_.pick].get();
  BeginSlice(next, decision_.preempted);
  switches_++;
  SetCurrent(next);
  s->fiber->SwitchTo(*next->fiber);
}

// Every step's path. The common case of a random run — a uniform pick
// from an unchanged set, which holds s — is decided here without a call,
// so this stays a leaf that saves no registers; every other case is a
// tail call: PointSlow (ContinueInline: the full decision) or LeavePoint
// (the switch). Both make the same decision as ContinueInline would.
void ExploreExecutor::Point(const char* op, uint64_t arg) {
  Slot* s = current_;
  if (s == nullptr) return;  // setup and quiescence code run outside tasks
  s->pending_op = op;
  s->pending_arg = arg;
  if (!fast_points_) return continue_inline_ ? PointSlow(s) : LeavePoint(s);
  const size_t n = enabled_.size();
  // One test of the or of all conditions, not one branch each: | on
  // unsigned, since clang (-Wbitwise-instead-of-logical) takes | on bools
  // for a mistyped ||.
  const unsigned slow =
      static_cast<unsigned>(enabled_stale_) | static_cast<unsigned>(stopping_) |
      static_cast<unsigned>(steps_ > max_steps_) |
      static_cast<unsigned>(!explore_internal::GateIs(s->task, gate_before_)) |
      static_cast<unsigned>(n > 1 && nchoices_ == choices_.size());
  if (slow != 0) return PointSlow(s);
  // s is in the unchanged set (it was picked from it): no preemption
  // when it goes on, and {s} when the set has one task.
  const int self = s->task.id;
  int pick = self;
  if (n > 1) {
    pick = enabled_[uniform_->Below(n)];
    choices_[nchoices_++] = pick;
  }
  Decision& d = decision_;
  d.kind = Decision::kRun;
  d.pick = pick;
  d.preempted = pick != self;
  if (d.preempted) {
    preemptions_++;
    handoff_ = true;
    return LeavePoint(s);
  }
  // BeginSlice(s, false) for a running task: started, untraced, and its
  // gate is gate_before_ already.
  s->woken = false;
  steps_++;
}

__attribute__((noinline)) void ExploreExecutor::PointSlow(Slot* s) {
  if (ContinueInline(s)) return;
  LeavePoint(s);
}

// Out of line so that Point's fast path stays a leaf.
__attribute__((noinline)) void ExploreExecutor::LeavePoint(Slot* s) {
  if (Fiber::kCanSwitchDirectly && handoff_ &&
      decision_.kind == Decision::kRun) {
    HandOver(s);
  } else {
    s->fiber->Suspend();
  }
  if (stopping_) throw TaskOops{};
}

// A block or a wake-up changes only that task's membership while no task
// gates a CPU (enabled_exact_): the set is then updated in place, in
// ascending order as RefreshEnabled builds it, instead of rebuilt. A task
// that gates its CPU as it blocks (a spin wait with preemption off) or
// any gating since the last rebuild makes the set stale instead.
SQL_ALWAYS_INLINE void ExploreExecutor::DropEnabled(const Task& t) {
  if (enabled_stale_) return;
  if (!enabled_exact_ || explore_internal::GateOf(t) != 0) {
    enabled_stale_ = true;
    return;
  }
  // By hand: a few ids, where erase and insert would call memmove.
  const size_t n = enabled_.size();
  size_t i = 0;
  while (i < n && enabled_[i] != t.id) i++;
  if (i == n) return;
  for (; i + 1 < n; i++) enabled_[i] = enabled_[i + 1];
  enabled_.pop_back();
}

SQL_ALWAYS_INLINE void ExploreExecutor::AddEnabled(const Task& t) {
  if (enabled_stale_) return;
  if (!enabled_exact_) {
    enabled_stale_ = true;
    return;
  }
  enabled_.push_back(t.id);
  for (size_t i = enabled_.size() - 1; i > 0 && enabled_[i - 1] > t.id; i--)
    std::swap(enabled_[i - 1], enabled_[i]);
}

void ExploreExecutor::WaitEvent(WaitList& wq,
                                const std::function<bool()>& cond) {
  Slot* s = current_;
  while (!cond()) {
    s->task.state = TaskState::kBlocked;
    s->task.blocked_on = &wq;
    wq.waiters.push_back(&s->task);
    if (wants_steps_) step_waited_.push_back(&wq);
    s->pending_op = s->task.blocked_in;
    s->woken = true;
    DropEnabled(s->task);
    // The scheduler's next decision, made here as at a point (s, blocked,
    // is not among the enabled tasks): the chosen task runs in its place.
    // The step limit, a stop and the end of the run (no task enabled, the
    // strategy abandoning it) are the scheduler's.
    if (Fiber::kCanSwitchDirectly && continue_inline_ && !stopping_ &&
        steps_ <= max_steps_) {
      Decide(s->task.id);
      if (decision_.kind == Decision::kRun) {
        HandOver(s);
      } else {
        handoff_ = true;
        s->fiber->Suspend();
      }
    } else {
      s->fiber->Suspend();
    }
    if (stopping_) throw TaskOops{};
  }
}

void ExploreExecutor::WakeUp(WaitList& wq) {
  if (wants_steps_) step_woke_.push_back(&wq);
  for (Task* t : wq.waiters) {
    if (t->state == TaskState::kBlocked && t->blocked_on == &wq) {
      t->state = TaskState::kRunnable;
      t->blocked_on = nullptr;
      AddEnabled(*t);
    }
  }
  wq.waiters.clear();
}

}  // namespace squashlab
