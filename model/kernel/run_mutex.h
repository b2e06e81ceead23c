// SPDX-License-Identifier: GPL-2.0-only
// This file implements RunMutex: the lock of one run's registries (the
// page cache trees, the buffer cache, the heap, the work items, the wait
// queue table). It locks only when the run's tasks execute concurrently
// (the threads executor, Executor::Concurrent); the explore and simulate
// executors run one task at a time on one thread, where a lock on every
// kernel-API call would order nothing and cost two atomic operations.
#ifndef SQUASHLAB_MODEL_KERNEL_RUN_MUTEX_H_
#define SQUASHLAB_MODEL_KERNEL_RUN_MUTEX_H_

#include <mutex>

namespace squashlab {

// BasicLockable: use with std::lock_guard / std::unique_lock.
class RunMutex {
 public:
  explicit RunMutex(bool concurrent) : concurrent_(concurrent) {}
  RunMutex(const RunMutex&) = delete;
  RunMutex& operator=(const RunMutex&) = delete;
  void lock() {
    if (concurrent_) mu_.lock();
  }
  void unlock() {
    if (concurrent_) mu_.unlock();
  }

 private:
  const bool concurrent_;
  std::mutex mu_;
};

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_KERNEL_RUN_MUTEX_H_
