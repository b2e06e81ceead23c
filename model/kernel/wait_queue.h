// SPDX-License-Identifier: GPL-2.0-only
// This file implements wait_queue_head_t, the kernel's wait queue, and its
// calls init_waitqueue_head / wait_event / wake_up. The executor's sleeping
// state (sched/wait_list.h) is its base.
#ifndef SQUASHLAB_MODEL_KERNEL_WAIT_QUEUE_H_
#define SQUASHLAB_MODEL_KERNEL_WAIT_QUEUE_H_

#include <functional>

#include "model/sched/wait_list.h"

namespace squashlab {

struct wait_queue_head_t : WaitList {};

inline void init_waitqueue_head(wait_queue_head_t* wq) { wq->waiters.clear(); }

// Sleeps until cond() holds (might_sleep). The condition is re-evaluated on
// every wake_up(wq), so a waker that forgets wake_up leaves the task asleep:
// a hang, reported at quiescence, as in the kernel.
void wait_event(wait_queue_head_t& wq, const std::function<bool()>& cond);
void wake_up(wait_queue_head_t* wq);
inline void wake_up_all(wait_queue_head_t* wq) { wake_up(wq); }

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_KERNEL_WAIT_QUEUE_H_
