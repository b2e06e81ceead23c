// SPDX-License-Identifier: GPL-2.0-only
// This file implements the simulate executor's event loop.
#include "model/sched/simulate_executor.h"

#include <algorithm>
#include <limits>

#include "model/sched/task_fault.h"
#include "model/sched/wait_list.h"

namespace squashlab {
namespace {
constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr size_t kStackSize = 1 << 20;
#else
constexpr size_t kStackSize = 256 << 10;
#endif
}  // namespace

SimulateExecutor::SimulateExecutor(CostModel cost, bool record_trace)
    : cost_(std::move(cost)), record_trace_(record_trace), stacks_(kStackSize) {
  trace_.ts_is_ns = true;
}

SimulateExecutor::~SimulateExecutor() { KillAll(); }

Task* SimulateExecutor::Spawn(TaskSpec spec) {
  auto slot = std::make_unique<Slot>();
  Slot* s = slot.get();
  s->task.id = static_cast<int>(slots_.size());
  int ncpus = Cpus();
  s->task.cpu = spec.cpu >= 0 ? spec.cpu % ncpus : 0;
  s->ready_at = std::max(spec.start_ns, NowNs());
  s->woke = true;
  s->task.spec = std::move(spec);
  s->fiber = std::make_unique<Fiber>(&stacks_, [this, s] { Body(s); });
  slots_.push_back(std::move(slot));
  live_.push_back(s);
  if (record_trace_) trace_.task_names.push_back(s->task.Comm());
  return &s->task;
}

void SimulateExecutor::Body(Slot* s) {
  if (stopping_) return;
  RunTaskBody(s->task.spec.body, s->fiber->stack_lo(), s->fiber->stack_hi());
}

uint64_t SimulateExecutor::NowNs() {
  if (current_ != nullptr) return cpus_[current_cpu_].now;
  uint64_t t = 0;
  for (const Cpu& c : cpus_) t = std::max(t, c.now);
  return t;
}

void SimulateExecutor::Charge(CostKind kind, uint64_t units,
                              const char* codec) {
  if (current_ == nullptr) return;
  uint64_t ns = cost_.Cost(kind, units, codec);
  const uint64_t slice = cost_.preemptible_charge_slice_ns;
  // Preemptible: give the event loop the CPU after every slice, so a task
  // that became ready meanwhile (a timer, a wake-up from another CPU) can
  // preempt in the middle of the charge.
  while (slice > 0 && ns > slice && !current_->task.atomic()) {
    cpus_[current_cpu_].now += slice;
    ns -= slice;
    Slot* s = current_;
    s->pending_op = "preemptible";
    s->fiber->Suspend();
    if (stopping_) throw TaskOops{};
  }
  cpus_[current_cpu_].now += ns;
}

void SimulateExecutor::Point(const char* op, uint64_t arg) {
  Slot* s = current_;
  if (s == nullptr) return;
  Charge(CostKind::kApiCall, 1, nullptr);
  s->pending_op = op;
  s->pending_arg = arg;
  s->fiber->Suspend();
  if (stopping_) throw TaskOops{};
}

void SimulateExecutor::Delay(uint64_t ns) {
  Slot* s = current_;
  if (s == nullptr) return;
  s->ready_at = cpus_[current_cpu_].now + ns;
  s->woke = true;
  s->pending_op = "delay";
  s->fiber->Suspend();
  if (stopping_) throw TaskOops{};
}

void SimulateExecutor::WaitEvent(WaitList& wq,
                                 const std::function<bool()>& cond) {
  Slot* s = current_;
  while (!cond()) {
    s->task.state = TaskState::kBlocked;
    s->task.blocked_on = &wq;
    wq.waiters.push_back(&s->task);
    s->pending_op = s->task.blocked_in;
    s->fiber->Suspend();
    if (stopping_) throw TaskOops{};
  }
}

void SimulateExecutor::WakeUp(WaitList& wq) {
  uint64_t now = NowNs();
  for (Task* t : wq.waiters) {
    if (t->state != TaskState::kBlocked || t->blocked_on != &wq) continue;
    t->state = TaskState::kRunnable;
    t->blocked_on = nullptr;
    Slot* s = slots_[t->id].get();
    s->ready_at = now;
    s->woke = true;
  }
  wq.waiters.clear();
}

bool SimulateExecutor::Eligible(const Slot& s, int cpu) const {
  if (s.task.state != TaskState::kRunnable || s.on_cpu) return false;
  int n = static_cast<int>(cpus_.size());
  if (s.task.spec.cpu >= 0) return s.task.spec.cpu % n == cpu;
  if (s.task.migrate_disable > 0) return s.task.cpu == cpu;
  return true;
}

SimulateExecutor::Slot* SimulateExecutor::BestReady(int cpu,
                                                    uint64_t by) const {
  Slot* best = nullptr;
  for (Slot* s : live_) {
    if (!Eligible(*s, cpu) || s->ready_at > by) continue;
    if (best == nullptr || s->task.spec.prio > best->task.spec.prio ||
        (s->task.spec.prio == best->task.spec.prio &&
         s->ready_at < best->ready_at))
      best = s;
  }
  return best;
}

uint64_t SimulateExecutor::NextActionTime(int cpu) const {
  const Cpu& c = cpus_[cpu];
  if (c.current != nullptr) return c.now;
  uint64_t t = kNever;
  for (const Slot* s : live_)
    if (Eligible(*s, cpu)) t = std::min(t, s->ready_at);
  return t == kNever ? kNever : std::max(t, c.now);
}

bool SimulateExecutor::ShouldPreempt(const Cpu& c, const Slot& cand) const {
  const Task& cur = c.current->task;
  if (cand.task.in_interrupt())
    return cur.irqs_disabled == 0 && !cur.in_interrupt();
  if (cur.atomic()) return false;
  if (cand.task.spec.prio != cur.spec.prio)
    return cand.task.spec.prio > cur.spec.prio;
  return c.now - c.slice_start >= cost_.timeslice_ns;
}

void SimulateExecutor::Dispatch(int cpu, Slot* s) {
  Cpu& c = cpus_[cpu];
  c.current = s;
  s->on_cpu = true;
  s->task.cpu = cpu;
  if (s->woke) {
    s->stats.max_wakeup_latency_ns =
        std::max(s->stats.max_wakeup_latency_ns, c.now - s->ready_at);
    s->stats.wakeups++;
    s->woke = false;
  }
  if (!s->task.in_interrupt()) c.now += cost_.context_switch_ns;
  c.slice_start = c.now;
}

void SimulateExecutor::Vacate(Cpu& c) {
  c.current->on_cpu = false;
  c.current = nullptr;
  if (!c.interrupted.empty()) {
    c.current = c.interrupted.back();
    c.interrupted.pop_back();
  }
}

void SimulateExecutor::Step(int cpu) {
  Cpu& c = cpus_[cpu];
  Slot* s = c.current;
  if (record_trace_) {
    TraceEvent e{steps_,         s->task.id, cpu,   s->pending_op,
                 s->pending_arg, c.now,      false, false};
    trace_.events.push_back(e);
  }
  steps_++;
  s->task.started = true;
  current_ = s;
  current_cpu_ = cpu;
  uint64_t before = c.now;
  s->fiber->Resume();
  current_ = nullptr;
  s->stats.runtime_ns += c.now - before;
  if (s->fiber->finished()) {
    s->task.state = TaskState::kDone;
    s->fiber.reset();
    live_.erase(std::find(live_.begin(), live_.end(), s));
    Vacate(c);
  } else if (s->task.state == TaskState::kBlocked || s->ready_at > c.now) {
    Vacate(c);
  }
}

RunOutcome SimulateExecutor::Run() {
  RunHooks& kernel = *hooks_;
  cpus_.assign(kernel.Cpus(), Cpu{});
  while (!stopping_) {
    int best = -1;
    uint64_t t = kNever;
    for (int i = 0; i < static_cast<int>(cpus_.size()); i++) {
      uint64_t nt = NextActionTime(i);
      if (nt < t) best = i, t = nt;
    }
    if (best < 0) {
      std::vector<const Task*> stuck;
      for (const auto& s : slots_)
        if (s->task.state != TaskState::kDone) stuck.push_back(&s->task);
      kernel.Hang(stuck);
      break;
    }
    Cpu& c = cpus_[best];
    c.now = std::max(c.now, t);
    if (c.current == nullptr) {
      Dispatch(best, BestReady(best, c.now));
    } else if (Slot* cand = BestReady(best, c.now);
               cand && ShouldPreempt(c, *cand)) {
      if (cand->task.in_interrupt()) {
        c.interrupted.push_back(c.current);
      } else {
        c.current->on_cpu = false;
        c.current->ready_at = c.now;
      }
      c.current = nullptr;
      Dispatch(best, cand);
    }
    Step(best);
    if (steps_ > kernel.MaxSteps() && !kernel.Fatal()) {
      kernel.StepLimitExceeded();
      stopping_ = true;
    }
  }
  RunOutcome out;
  out.completed = !stopping_ && !kernel.Fatal();
  out.steps = steps_;
  out.end_ns = NowNs();
  KillAll();
  return out;
}

void SimulateExecutor::KillAll() {
  stopping_ = true;
  for (auto& s : slots_) {
    while (s->fiber && !s->fiber->finished()) {
      current_ = s.get();
      current_cpu_ = 0;
      if (cpus_.empty()) cpus_.assign(1, Cpu{});
      s->fiber->Resume();
      current_ = nullptr;
    }
    s->task.state = TaskState::kDone;
    s->fiber.reset();
  }
}

}  // namespace squashlab
