// SPDX-License-Identifier: GPL-2.0-only
// This file implements WorkQueue with one mutex and two condition variables;
// a worker is woken only when one is asleep, so a busy queue costs no
// system calls to hand tasks over.
#include "cli/reader/work_queue.h"

#include <system_error>

#include "reader/thread_limit.h"

namespace squashlab::cli {

WorkQueue::WorkQueue(int threads, size_t capacity)
    : capacity_(capacity < 1 ? 1 : capacity) {
  // Each worker's stack is address space: under a limit the queue starts
  // fewer, and the system may still refuse one; it then runs with those it
  // got (the producer alone, at worst), the result the same.
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
