// SPDX-License-Identifier: GPL-2.0-only
// This file implements the explore executor's run loop.
#include "model/sched/explore_executor.h"

#include <algorithm>

#include "model/sched/wait_list.h"

// The run loop's helpers that sit on every step's path.
#define SQL_ALWAYS_INLINE inline __attribute__((always_inline))

namespace squashlab {
namespace {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr size_t kStackSize = 1 << 20;
#else
constexpr size_t kStackSize = 256 << 10;
#endif
}  // namespace

namespace {
// What a task gates on its CPU (see Gated), as StepInfo says it.
int GateOf(const Task& t) {
  return (t.preempt_count > 0 ? StepInfo::kGatesPreemption : 0) |
         (t.irqs_disabled > 0 ? StepInfo::kGatesInterrupts : 0);
}
// GateOf(t) == before, on every step: almost always nothing is off.
inline bool GateIs(const Task& t, int before) {
  if ((t.preempt_count | t.irqs_disabled | before) == 0) return true;
  return GateOf(t) == before;
}
}  // namespace

ExploreExecutor::ExploreExecutor() : stacks_(kStackSize) {
  tracks_running_ = true;
}
ExploreExecutor::~ExploreExecutor() { KillAll(); }

void ExploreExecutor::Reset(Strategy* strategy, bool record_trace) {
  KillAll();
  for (auto& slot : slots_) spare_.push_back(std::move(slot));
  slots_.clear();
  strategy_ = strategy;
  record_trace_ = record_trace;
  wants_steps_ = strategy != nullptr && strategy->WantsSteps();
  uniform_ = nullptr;
  SetCurrent(nullptr);
  stopping_ = false;
  abandoned_ = false;
  steps_ = 0;
  switches_ = 0;
  preemptions_ = 0;
  nchoices_ = 0;  // the storage stays: PushChoice
  enabled_stale_ = true;
  handoff_ = false;
  continue_inline_ = false;
  fast_points_ = false;
  trace_ = ScheduleTrace{};
}

// A slot of an earlier run is reused: the run's tasks, their fibers and
// the capacity of their lists then cost no allocation.
std::unique_ptr<ExploreExecutor::Slot> ExploreExecutor::NewSlot() {
  if (spare_.empty()) return std::make_unique<Slot>();
  std::unique_ptr<Slot> slot = std::move(spare_.back());
  spare_.pop_back();
  std::vector<const char*> held = std::move(slot->task.held_locks);
  held.clear();
  slot->task = Task{};
  slot->task.held_locks = std::move(held);
  slot->pending_op = "start";
  slot->pending_arg = 0;
  slot->woken = false;
  return slot;
}

Task* ExploreExecutor::Spawn(TaskSpec spec) {
  std::unique_ptr<Slot> slot = NewSlot();
  Slot* s = slot.get();
  s->task.id = static_cast<int>(slots_.size());
  int ncpus = Cpus();
  s->task.cpu = spec.cpu >= 0 ? spec.cpu % ncpus : s->task.id % ncpus;
  s->task.spec = std::move(spec);
  s->fiber.emplace(&stacks_, [this, s] { Body(s); });
  slots_.push_back(std::move(slot));
  enabled_stale_ = true;
  if (record_trace_) trace_.task_names.push_back(s->task.Comm());
  if (strategy_) strategy_->OnSpawn(s->task.id);
  return &s->task;
}

void ExploreExecutor::Body(Slot* s) {
  if (stopping_) return;
  try {
    s->task.spec.body();
  } catch (const TaskOops&) {
  }
}

void ExploreExecutor::RecordTraceEvent(const Slot& s, bool preempted) {
  TraceEvent e;
  e.step = steps_;
  e.task = s.task.id;
  e.cpu = s.task.cpu;
  e.op = s.pending_op;
  e.arg = s.pending_arg;
  e.ts_ns = static_cast<uint64_t>(steps_);
  e.preempted = preempted;
  e.woken = s.woken;
  trace_.events.push_back(e);
}

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
  gate_before_ = GateOf(s->task);
}

void ExploreExecutor::GrowChoices() {
  choices_.resize(std::max<size_t>(256, 2 * choices_.size()));
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
    last_enabled = last >= 0 && slots_[last]->task.state == TaskState::kRunnable;
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

// Inside task s, at its point: what the scheduler would do once s
// suspended (the end of the step, the step limit, the next decision), done
// here. When the decision is s itself, its next step starts without a
// switch; otherwise the decision is handed over with the switch.
SQL_ALWAYS_INLINE bool ExploreExecutor::ContinueInline(Slot* s) {
  if (!GateIs(s->task, gate_before_)) {
    enabled_stale_ = true;
    gate_before_ = GateOf(s->task);
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
  if (enabled_stale_ | stopping_ |
      (steps_ > max_steps_) | !GateIs(s->task, gate_before_) |
      (n > 1 && nchoices_ == choices_.size()))
    return PointSlow(s);
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
  if (!enabled_exact_ || GateOf(t) != 0) {
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

// A task cannot run while another task on its CPU is inside an interrupt
// handler or a non-preemptible section (an interrupt may still come in
// unless interrupts are off).
bool ExploreExecutor::Gated(const Slot& s) const {
  for (const auto& o : slots_) {
    const Task& u = o->task;
    if (&u == &s.task || u.cpu != s.task.cpu || u.state == TaskState::kDone ||
        !u.started)
      continue;
    if (u.in_interrupt()) return true;
    if (u.irqs_disabled > 0) return true;
    if (u.preempt_count > 0 && !s.task.in_interrupt()) return true;
  }
  return false;
}

void ExploreExecutor::RefreshEnabled() {
  enabled_stale_ = false;
  std::vector<int>* out = &enabled_;
  out->clear();
  bool any_atomic = false;
  for (const auto& s : slots_) {
    const Task& t = s->task;
    if (t.state == TaskState::kDone) continue;
    any_atomic |= t.started && t.atomic();
    if (t.state == TaskState::kRunnable) out->push_back(t.id);
  }
  enabled_exact_ = !any_atomic;
  if (!any_atomic) return;  // the common case: nothing gates a CPU
  size_t kept = 0;
  for (int id : *out)
    if (!Gated(*slots_[id])) (*out)[kept++] = id;
  out->resize(kept);
}

int ExploreExecutor::RunSlice(int id, bool preempted) {
  Slot* s = slots_[id].get();
  BeginSlice(s, preempted);
  // Strategies that never look at steps (random, PCT, replay) skip the
  // bookkeeping around the step.
  if (wants_steps_) {
    ObservedSlice(s);
    return id;
  }
  Slot* ran = Switch(s);
  if (GateOf(ran->task) != gate_before_) enabled_stale_ = true;
  return ran->task.id;
}

ExploreExecutor::Slot* ExploreExecutor::Switch(Slot* s) {
  switches_++;
  SetCurrent(s);
  s->fiber->Resume();
  Slot* ran = current_;  // s, or a task s's fiber switched to (Point)
  SetCurrent(nullptr);
  if (ran->fiber->finished()) {
    ran->task.state = TaskState::kDone;
    ran->fiber.reset();  // the stack goes back to the pool
    enabled_stale_ = true;
  }
  return ran;
}

void ExploreExecutor::ObservedSlice(Slot* s) {
  const char* op = s->pending_op;
  const uint64_t arg = s->pending_arg;
  const size_t tasks_before = slots_.size();
  RunHooks* kernel = hooks_;
  const uint64_t ids_before = kernel ? kernel->ObjectIdsIssued() : 0;
  const uint64_t wide_before = kernel ? kernel->WideEffects() : 0;
  const int gate_before = gate_before_;
  step_waited_.clear();
  step_woke_.clear();
  Switch(s);
  const int gate_after = GateOf(s->task);
  if (gate_after != gate_before) enabled_stale_ = true;
  StepInfo info;
  info.task = s->task.id;
  info.context = s->task.spec.context;
  info.op = op;
  info.arg = arg;
  info.created = slots_.size() != tasks_before ||
                 (kernel && kernel->ObjectIdsIssued() != ids_before);
  info.cpu = s->task.cpu;
  info.gates_more = gate_after & ~gate_before;
  info.wide = kernel && kernel->WideEffects() != wide_before;
  info.stopped = s->task.state != TaskState::kRunnable;
  info.finished = s->task.state == TaskState::kDone;
  info.waited = step_waited_;
  info.woke = step_woke_;
  if (!stopping_ && !strategy_->OnStep(info)) {
    abandoned_ = true;
    stopping_ = true;
  }
}

void ExploreExecutor::ReportHang(RunHooks& kernel) {
  std::vector<const Task*> stuck;
  for (const auto& s : slots_)
    if (s->task.state != TaskState::kDone) stuck.push_back(&s->task);
  kernel.Hang(stuck);
}

RunOutcome ExploreExecutor::Run() {
  RunHooks& kernel = *hooks_;
  stopping_ = false;  // a kernel may run several batches of tasks
  wants_steps_ = strategy_->WantsSteps();
  uniform_ = strategy_->UniformPicks();
  // Steps a strategy watches, and traced steps, each go through here.
  continue_inline_ = !wants_steps_ && !record_trace_;
  fast_points_ = continue_inline_ && uniform_ != nullptr;
  max_steps_ = kernel.MaxSteps();
  enabled_stale_ = true;
  handoff_ = false;
  int last = -1;
  while (!stopping_) {
    if (!handoff_) Decide(last);
    handoff_ = false;
    const Decision& d = decision_;
    if (d.kind == Decision::kNoneEnabled) {
      bool live = std::any_of(slots_.begin(), slots_.end(), [](const auto& s) {
        return s->task.state != TaskState::kDone;
      });
      if (live) ReportHang(kernel);
      break;
    }
    if (d.kind == Decision::kAbandon) {
      abandoned_ = true;
      stopping_ = true;
      break;
    }
    last = RunSlice(d.pick, d.preempted);
    if (steps_ > max_steps_ && !kernel.Fatal()) {
      kernel.StepLimitExceeded();
      stopping_ = true;
    }
  }
  RunOutcome out;
  out.completed = !stopping_ && !kernel.Fatal();
  out.steps = steps_;
  out.end_ns = static_cast<uint64_t>(steps_);
  KillAll();
  return out;
}

// Unwinds every unfinished task (each throws TaskOops at its next point).
void ExploreExecutor::KillAll() {
  stopping_ = true;
  handoff_ = false;
  for (auto& s : slots_) {
    while (s->fiber && !s->fiber->finished()) {
      SetCurrent(s.get());
      s->fiber->Resume();
      SetCurrent(nullptr);
    }
    s->task.state = TaskState::kDone;
    s->fiber.reset();
  }
}

}  // namespace squashlab
