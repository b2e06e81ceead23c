// SPDX-License-Identifier: GPL-2.0-only
// This file implements work_struct and workqueues: INIT_WORK,
// schedule_work / queue_work (with the pending bit: queueing a pending item
// is a no-op returning false), worker tasks in workqueue context, and
// flush_work. Each queued item runs in its own kworker task, never
// concurrently with itself (the kernel's non-reentrancy).
#ifndef SQUASHLAB_MODEL_KERNEL_WORKQUEUE_H_
#define SQUASHLAB_MODEL_KERNEL_WORKQUEUE_H_

#include <atomic>
#include <cstdint>
#include <string>

#include "model/kernel/wait_queue.h"

namespace squashlab {

struct work_struct;
using work_func_t = void (*)(work_struct*);

inline constexpr int WORK_STRUCT_PENDING_BIT = 0;

struct work_struct {
  std::atomic<unsigned long> data{0};
  work_func_t func = nullptr;
  // The model's: a per-run number given by INIT_WORK that names the item's
  // wait queue (Kernel::Waitqueue) and its scheduling points, the same in
  // every run, never a heap address.
  uint64_t wait_key = 0;
};

struct workqueue_struct {
  std::string name;
};

// The kernel's system_wq ("events").
workqueue_struct* system_wq();

void INIT_WORK(work_struct* work, work_func_t func);
// Returns true when queued, false when it was already pending.
bool queue_work(workqueue_struct* wq, work_struct* work);
bool schedule_work(work_struct* work);
int work_pending(work_struct* work);
// Sleeps until the item is neither pending nor running; true if it waited.
bool flush_work(work_struct* work);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_KERNEL_WORKQUEUE_H_
