// SPDX-License-Identifier: GPL-2.0-only
// This file implements the "Call Trace:" of a report: the frames of the
// stack that lie in kernel text (the loaded modules of real kernel code,
// registered at load), innermost first, by function name, as the kernel's
// dump_stack prints them under an oops, a KASAN report or a warning.
#ifndef SQUASHLAB_MODEL_KERNEL_CHECKERS_CALL_TRACE_H_
#define SQUASHLAB_MODEL_KERNEL_CHECKERS_CALL_TRACE_H_

#include <cstddef>
#include <cstdint>
#include <string>

namespace squashlab {

// Adds [lo, lo + len) to kernel text (thread-safe).
void AddKernelText(uintptr_t lo, size_t len);
bool InKernelText(uintptr_t pc);

// The trace of `pcs` (a backtrace, outermost last; each frame is named by
// the instruction before its address, which for a return address is the
// call), or "" when no frame is in kernel text.
std::string FormatCallTrace(const uintptr_t* pcs, int n);

// The trace of the calling thread's stack now.
std::string CurrentCallTrace();

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_KERNEL_CHECKERS_CALL_TRACE_H_
