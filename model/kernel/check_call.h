// SPDX-License-Identifier: GPL-2.0-only
// This file implements CheckCall, the check on a call through a function
// pointer read from memory (an ops field of a kmalloc'd object): when it
// names no function of this process — the object was freed and a
// production slab gave its bytes to another user — the kernel jumps there
// and oopses; so does the model ("unable to handle kernel paging request
// in `where`") instead of crashing the host.
#ifndef SQUASHLAB_MODEL_KERNEL_CHECK_CALL_H_
#define SQUASHLAB_MODEL_KERNEL_CHECK_CALL_H_

namespace squashlab {

// REQUIRES: inside a run (Kernel::Current()).
void CheckCall(const void* fn, const char* where);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_KERNEL_CHECK_CALL_H_
