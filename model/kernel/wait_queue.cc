// SPDX-License-Identifier: GPL-2.0-only
// This file implements wait_event and wake_up over the current executor.
#include "model/kernel/wait_queue.h"

#include "model/kernel/kernel.h"

namespace squashlab {

void wait_event(wait_queue_head_t& wq, const std::function<bool()>& cond) {
  Kernel& k = Kernel::Current();
  k.MightSleep("wait_event");
  k.Point("wait_event", 0);
  k.Sleep(wq, cond, "wait_event", 0);
}

void wake_up(wait_queue_head_t* wq) {
  Kernel& k = Kernel::Current();
  k.CheckPtr(wq, "wake_up");
  k.Point("wake_up", 0);
  k.Wake(*wq);
}

}  // namespace squashlab
