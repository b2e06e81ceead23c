// SPDX-License-Identifier: GPL-2.0-only
// This file implements WorkQueue with one mutex and two condition variables;
// a worker is woken only when one is asleep, so a busy queue costs no
// system calls to hand tasks over.
#include "cli/work_queue.h"

#include <sys/resource.h>

#include <algorithm>
#include <system_error>

namespace squashlab::cli {

namespace {

// Each worker's stack is address space (RLIMIT_STACK's size, 8 MiB by
// default): under a limit (ulimit -v, a container's) the workers' stacks
// may take at most a quarter of it, so the tasks' own buffers still fit.
int WorkersTheLimitAllows(int wanted) {
  rlimit as{}, stack{};
  if (getrlimit(RLIMIT_AS, &as) != 0 || as.rlim_cur == RLIM_INFINITY)
    return wanted;
  rlim_t per = rlim_t{8} << 20;
  if (getrlimit(RLIMIT_STACK, &stack) == 0 && stack.rlim_cur != RLIM_INFINITY &&
      stack.rlim_cur > 0)
    per = stack.rlim_cur;
  const rlim_t allowed = as.rlim_cur / 4 / per;
  return static_cast<int>(
      std::min<rlim_t>(static_cast<rlim_t>(wanted), allowed));
}

}  // namespace

WorkQueue::WorkQueue(int threads, size_t capacity)
    : capacity_(capacity < 1 ? 1 : capacity) {
  // The system may still refuse a thread: the queue then runs with those
  // it got (the producer alone, at worst), the result the same.
  const int workers = WorkersTheLimitAllows(threads - 1);
  for (int slot = 1; slot <= workers; ++slot) {
    try {
      workers_.emplace_back([this, slot] { WorkerLoop(slot); });
    } catch (const std::system_error&) {
      break;
    }
  }
}

WorkQueue::~WorkQueue() {
  Drain();
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  work_cv_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void WorkQueue::Submit(Task task) {
  if (workers_.empty()) {
    task(0);
    return;
  }
  std::unique_lock<std::mutex> lock(mu_);
  while (queue_.size() >= capacity_) {
    Task oldest = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    oldest(0);
    lock.lock();
  }
  queue_.push_back(std::move(task));
  const bool wake = sleeping_ > 0;
  lock.unlock();
  if (wake) work_cv_.notify_one();
}

void WorkQueue::SubmitFirst(Task task) {
  if (workers_.empty()) {
    task(0);
    return;
  }
  std::unique_lock<std::mutex> lock(mu_);
  queue_.push_front(std::move(task));
  const bool wake = sleeping_ > 0;
  lock.unlock();
  if (wake) work_cv_.notify_one();
}

void WorkQueue::Drain() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!queue_.empty()) {
    Task t = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    t(0);
    lock.lock();
  }
  idle_cv_.wait(lock, [this] { return running_ == 0; });
}

void WorkQueue::WorkerLoop(int slot) {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    if (queue_.empty()) {
      if (stop_) return;
      ++sleeping_;
      work_cv_.wait(lock);
      --sleeping_;
      continue;
    }
    Task t = std::move(queue_.front());
    queue_.pop_front();
    ++running_;
    lock.unlock();
    t(slot);
    t = nullptr;  // release what the task holds before reporting idle
    lock.lock();
    if (--running_ == 0) idle_cv_.notify_all();
  }
}

}  // namespace squashlab::cli
