// SPDX-License-Identifier: GPL-2.0-only
// This file implements WorkQueue: a bounded FIFO of tasks run by a fixed set
// of worker threads. A producer that finds the queue full runs the oldest
// task itself instead of sleeping, so it never waits on one busy or
// descheduled worker (what made extraction slow on a loaded machine).
#ifndef SQUASHLAB_CLI_READER_WORK_QUEUE_H_
#define SQUASHLAB_CLI_READER_WORK_QUEUE_H_

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace squashlab::cli {

// One producer thread calls Submit and Drain; tasks must be thread-safe
// with each other. A task gets its runner's slot: 0 for the producer,
// 1..threads-1 for the workers (e.g. to pick a per-thread buffer).
class WorkQueue {
 public:
  using Task = std::function<void(int slot)>;
  // threads <= 1: no workers, Submit runs each task at once.
  WorkQueue(int threads, size_t capacity);
  ~WorkQueue();  // Drain, then stops the workers
  WorkQueue(const WorkQueue&) = delete;
  WorkQueue& operator=(const WorkQueue&) = delete;

  int slots() const { return static_cast<int>(workers_.size()) + 1; }
  void Submit(Task task);
  // Queues `task` ahead of every other (e.g. to start work that queued
  // tasks will need); it may exceed the capacity by one.
  void SubmitFirst(Task task);
  // Runs what is queued on the caller, then waits for the workers' tasks.
  void Drain();

 private:
  void WorkerLoop(int slot);

  size_t capacity_;
  std::mutex mu_;
  std::condition_variable work_cv_;  // a task was queued, or stop_
  std::condition_variable idle_cv_;  // running_ dropped to 0
  std::deque<Task> queue_;
  int running_ = 0;   // tasks being run by workers
  int sleeping_ = 0;  // workers waiting on work_cv_
  bool stop_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace squashlab::cli

#endif  // SQUASHLAB_CLI_READER_WORK_QUEUE_H_
