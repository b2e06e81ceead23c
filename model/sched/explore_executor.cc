// SPDX-License-Identifier: GPL-2.0-only
// This file implements the explore executor's run loop.
#include "model/sched/explore_executor.h"

#include <algorithm>

#include "model/sched/explore_executor_inl.h"
#include "model/sched/task_fault.h"

namespace squashlab {
namespace {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr size_t kStackSize = 1 << 20;
#else
constexpr size_t kStackSize = 256 << 10;
#endif
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
  RunTaskBody(s->task.spec.body, s->fiber->stack_lo(), s->fiber->stack_hi());
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
  if (explore_internal::GateOf(ran->task) != gate_before_)
    enabled_stale_ = true;
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
  const int gate_after = explore_internal::GateOf(s->task);
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
