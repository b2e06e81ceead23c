// SPDX-License-Identifier: GPL-2.0-only
// This file implements the landing of a host CPU fault in the task that
// caused it: a SIGSEGV, SIGBUS, SIGILL or SIGFPE raised while a task's body
// runs (a load through a stale pointer the model's checks let pass, a call
// through a function pointer read from a reused object, a stack overflow
// into the guard page, a division by zero) ends that task the way the
// kernel's oops ends it, instead of killing the whole process. The handler
// runs on a per-thread alternate stack (a stack overflow leaves none),
// finds the task whose stack the faulting stack pointer is on, and jumps
// back to the landing its trampoline set up; the trampoline then hands the
// fault to the reporter the kernel layer registered, which records the
// oops and throws TaskOops. A fault anywhere else (the scheduler, the
// reader, a test's own code) is not handled: the default action runs as if
// no handler had been installed.
//
// What the landing does not do: frames between the fault and the landing
// are abandoned, not unwound (their destructors do not run; the task's
// kernel state, such as the locks it holds, stays as the oops left it, as
// in the kernel), and a stray store that lands in mapped memory corrupts
// it without faulting, as in the kernel. Not installed in ThreadSanitizer
// builds (TSan defers and wraps signal delivery; a jump out of its
// handler is not supported).
#ifndef SQUASHLAB_MODEL_SCHED_TASK_FAULT_H_
#define SQUASHLAB_MODEL_SCHED_TASK_FAULT_H_

#include <cstddef>
#include <cstdint>
#include <functional>

#include "model/sched/fault_operand.h"

namespace squashlab {

// What the CPU reported.
struct TaskFault {
  int signo = 0;             // SIGSEGV, SIGBUS, SIGILL or SIGFPE
  int code = 0;              // siginfo's si_code (SEGV_MAPERR, SI_KERNEL, ...)
  uintptr_t addr = 0;        // the faulting address (si_addr; 0 for a GP fault)
  uintptr_t pc = 0;          // the instruction pointer at the fault
  uintptr_t sp = 0;          // the stack pointer at the fault
  bool stack_guard = false;  // addr is in the task's stack guard page
  // An instruction fetch (addr == pc: a call or jump to a bad address):
  // the return address on top of the stack, which names the caller (0
  // otherwise).
  uintptr_t return_address = 0;
  // The operand the faulting instruction meant to read, when it is a byte
  // or word load or compare through memory (fault_operand.h): what a
  // general protection fault does not report.
  bool operand_known = false;
  FaultOperand operand;
  // A general protection fault (SIGSEGV with si_code SI_KERNEL): a
  // non-canonical address, whose value the CPU does not report.
  bool general_protection() const;
  // The stack at the fault (backtrace(3) from the handler: the handler's
  // own frames first, then the faulting function and its callers).
  static constexpr int kTraceMax = 32;
  uintptr_t trace[kTraceMax] = {};
  int trace_depth = 0;
};

// Called on the faulting task's stack, after the jump back: records the
// oops and throws TaskOops. Registered once by the kernel layer.
using TaskFaultReporter = void (*)(const TaskFault&);
void SetTaskFaultReporter(TaskFaultReporter reporter);

// Runs a task's body under a landing: returns when the body returns, or
// throws TaskOops (the executors' trampolines catch it), or, after a host
// fault in the body, when the reporter has thrown TaskOops.
// `stack_lo`..`stack_hi` is the stack the body runs on (a fiber's stack,
// a thread's): a fault with the stack pointer there is the task's. A
// guard page just below `stack_lo`, if any, makes an overflow a
// `stack_guard` fault.
void RunTaskBody(const std::function<void()>& body, const void* stack_lo,
                 const void* stack_hi);
// The same for a body on the calling thread's own stack (the threads
// executor's one thread per task; the quiescence hooks, which run the
// code under test's teardown on the thread that drives the run).
void RunTaskBodyOnThreadStack(const std::function<void()>& body);

// Whether the handler is installed in this build (false under TSan).
bool TaskFaultLandingEnabled();

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_SCHED_TASK_FAULT_H_
