// SPDX-License-Identifier: GPL-2.0-only
// This file implements WaitList: the scheduler's side of a wait queue, the
// tasks asleep on it (explore, simulate) or a real condition variable
// (threads). The kernel's WaitList is one.
#ifndef SQUASHLAB_MODEL_SCHED_WAIT_LIST_H_
#define SQUASHLAB_MODEL_SCHED_WAIT_LIST_H_

#include <condition_variable>
#include <mutex>
#include <vector>

namespace squashlab {

struct Task;

struct WaitList {
  std::vector<Task*> waiters;  // explore / simulate: tasks asleep here
  std::mutex mu;               // threads: guards the sleep/wake handshake
  std::condition_variable cv;
};

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_SCHED_WAIT_LIST_H_
