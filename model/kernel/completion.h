// SPDX-License-Identifier: GPL-2.0-only
// This file implements struct completion (init_completion, complete,
// complete_all, wait_for_completion) on the run's wait queues.
#ifndef SQUASHLAB_MODEL_KERNEL_COMPLETION_H_
#define SQUASHLAB_MODEL_KERNEL_COMPLETION_H_

#include <atomic>

#include "model/kernel/wait_queue.h"

namespace squashlab {

struct completion {
  std::atomic<unsigned> done{0};
  wait_queue_head_t wait;
};
void init_completion(completion* c);
void complete(completion* c);
void complete_all(completion* c);
void wait_for_completion(completion* c);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_KERNEL_COMPLETION_H_
