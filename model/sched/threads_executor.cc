// SPDX-License-Identifier: GPL-2.0-only
// This file implements the threads executor.
#include "model/sched/threads_executor.h"

#include <chrono>

#include "model/base/rng.h"
#include "model/sched/task_fault.h"
#include "model/sched/wait_list.h"

namespace squashlab {

struct ThreadsExecutor::Slot {
  Task task;
  std::thread thread;
  Rng rng;
};

namespace {
thread_local Task* tls_task = nullptr;
thread_local Rng* tls_rng = nullptr;
}  // namespace

ThreadsExecutor::ThreadsExecutor(ThreadsOptions opt) : opt_(opt) {}

ThreadsExecutor::~ThreadsExecutor() {
  stopping_.store(true);
  for (auto& s : slots_)
    if (s->thread.joinable()) s->thread.join();
}

Task* ThreadsExecutor::Current() { return tls_task; }

Task* ThreadsExecutor::Spawn(TaskSpec spec) {
  Slot* s = nullptr;
  {
    std::lock_guard<std::mutex> l(slots_mu_);
    auto slot = std::make_unique<Slot>();
    s = slot.get();
    s->task.id = static_cast<int>(slots_.size());
    int ncpus = Cpus();
    s->task.cpu = spec.cpu >= 0 ? spec.cpu % ncpus : s->task.id % ncpus;
    s->task.spec = std::move(spec);
    s->rng = Rng(Rng::Mix(opt_.seed, s->task.id));
    slots_.push_back(std::move(slot));
    live_.fetch_add(1);
    if (running_.load()) Start(s);  // under the lock: Run joins what it sees
  }
  return &s->task;
}

void ThreadsExecutor::Start(Slot* s) {
  s->thread = std::thread([this, s] { Body(s); });
}

void ThreadsExecutor::Body(Slot* s) {
  if (hooks_) hooks_->EnterThread();
  tls_task = &s->task;
  tls_rng = &s->rng;
  s->task.started = true;
  if (!stopping_.load()) RunTaskBodyOnThreadStack(s->task.spec.body);
  if (s->task.preempt_count > 0) cpu_locks_[s->task.cpu]->unlock();
  if (s->task.state != TaskState::kBlocked) s->task.state = TaskState::kDone;
  live_.fetch_sub(1);
}

void ThreadsExecutor::Point(const char*, uint64_t) {
  if (tls_task == nullptr) return;
  steps_.fetch_add(1, std::memory_order_relaxed);
  if (stopping_.load(std::memory_order_relaxed)) throw TaskOops{};
  if (opt_.yield_one_in > 0 && tls_rng->Below(opt_.yield_one_in) == 0)
    std::this_thread::yield();
}

void ThreadsExecutor::WaitEvent(WaitList& wq,
                                const std::function<bool()>& cond) {
  std::unique_lock<std::mutex> l(wq.mu);
  if (cond()) return;
  asleep_.fetch_add(1);
  while (!cond()) {
    if (stopping_.load()) {
      tls_task->state = TaskState::kBlocked;  // for the hang report
      asleep_.fetch_sub(1);
      throw TaskOops{};
    }
    wq.cv.wait_for(l, std::chrono::milliseconds(1));
  }
  asleep_.fetch_sub(1);
}

// The notification is made under wq.mu: a waiter re-checks its condition
// under that lock, so it cannot return (and free the object holding wq)
// while the waker still uses wq.
void ThreadsExecutor::WakeUp(WaitList& wq) {
  std::lock_guard<std::mutex> l(wq.mu);
  wq.cv.notify_all();
}

void ThreadsExecutor::WakeUpAfter(WaitList& wq, void (*update)(void*),
                                  void* arg) {
  std::lock_guard<std::mutex> l(wq.mu);
  update(arg);
  wq.cv.notify_all();
}

void ThreadsExecutor::Delay(uint64_t ns) {
  if (tls_task == nullptr) return;
  std::this_thread::sleep_for(
      std::chrono::nanoseconds(ns / opt_.delay_divisor));
}

uint64_t ThreadsExecutor::NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now() - start_)
      .count();
}

// A CPU's non-preemptible sections exclude each other, as on one real CPU.
void ThreadsExecutor::PreemptOff(Task& t) {
  while (!cpu_locks_[t.cpu]->try_lock_for(std::chrono::milliseconds(1))) {
    if (stopping_.load()) {
      t.preempt_count = 0;
      throw TaskOops{};
    }
  }
}

void ThreadsExecutor::PreemptOn(Task& t) { cpu_locks_[t.cpu]->unlock(); }

bool ThreadsExecutor::Hung() const {
  int live = live_.load();
  return live > 0 && asleep_.load() == live;
}

RunOutcome ThreadsExecutor::Run() {
  RunHooks& kernel = *hooks_;
  start_ = std::chrono::steady_clock::now();
  for (int i = 0; i < kernel.Cpus(); i++)
    cpu_locks_.push_back(std::make_unique<std::timed_mutex>());
  {
    std::lock_guard<std::mutex> l(slots_mu_);
    running_.store(true);
    for (auto& s : slots_) Start(s.get());
  }
  int hung_ms = 0;
  while (live_.load() > 0 && !stopping_.load()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    hung_ms = Hung() ? hung_ms + 1 : 0;
    if (hung_ms >= opt_.hang_ms) stopping_.store(true);
  }
  bool hang = hung_ms >= opt_.hang_ms && !kernel.Fatal();
  for (size_t i = 0;; i++) {  // tasks may spawn tasks while we join
    Slot* s = nullptr;
    {
      std::lock_guard<std::mutex> l(slots_mu_);
      if (i >= slots_.size()) break;
      s = slots_[i].get();
    }
    s->thread.join();
  }
  if (hang) {
    std::vector<const Task*> stuck;
    for (auto& s : slots_)
      if (s->task.state == TaskState::kBlocked) stuck.push_back(&s->task);
    kernel.Hang(stuck);
  }
  RunOutcome out;
  out.completed = !stopping_.load() && !kernel.Fatal();
  out.steps = steps_.load();
  out.end_ns = NowNs();
  return out;
}

}  // namespace squashlab
