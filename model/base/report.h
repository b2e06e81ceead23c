// SPDX-License-Identifier: GPL-2.0-only
// This file implements Report: one finding of the generic checker, in the
// kernel's own words ("BUG: Bad page state", "VFS: brelse: ...").
#ifndef SQUASHLAB_MODEL_BASE_REPORT_H_
#define SQUASHLAB_MODEL_BASE_REPORT_H_

#include <string>

namespace squashlab {

// The classes of finding. Tests and the minimiser compare kinds and titles,
// never bodies (bodies carry addresses and counts).
enum class ReportKind {
  kNone = 0,
  kBadPageState,      // "BUG: Bad page state in process ..."
  kPageBug,           // VM_BUG_ON_PAGE: unlock of unlocked page, refcount 0
  kBrelseFreeBuffer,  // "VFS: brelse: Trying to free free buffer"
  kBufferBug,         // unlock_buffer on unlocked, end_io not under I/O
  kNullDereference,   // "BUG: unable to handle kernel NULL pointer dereference"
  kGeneralProtection,  // poisoned pointer (0x6b6b..., 0x5a5a...) dereferenced
  kUseAfterFree,       // "BUG: KASAN: use-after-free in ..."
  kDoubleFree,         // "BUG: KASAN: double-free or invalid-free in kfree"
  kUninitValue,        // "BUG: KMSAN: uninit-value in ..."
  kSchedulingWhileAtomic,  // "BUG: scheduling while atomic"
  kBadContext,             // smp_processor_id() in preemptible code, bad unlock
  kHungTask,         // "INFO: task dd:1 blocked for more than 120 seconds."
  kWorkFreedActive,  // "ODEBUG: free active (active state 0) object type:
                     // work_struct"
  kLeak,             // kmemleak-style: objects left at quiescence
  kQuiescence,       // page left locked, page neither uptodate nor error
  kAssertion,        // BUG_ON in model or scenario code: "kernel BUG at ..."
  kWrongData,        // the data oracle: a reader got wrong bytes
  kStepLimit,        // a run exceeded its step budget (livelock)
  kSleepInvalidContext,  // "BUG: sleeping function called from invalid
                         // context" (might_sleep)
  kLockdep,       // "WARNING: possible circular locking dependency detected"
  kOutOfBounds,   // "BUG: KASAN: slab-out-of-bounds in ..."
  kCpuException,  // "invalid opcode", "divide error", "stack guard page
                  // was hit": an oops of a CPU exception other than a
                  // page fault
  kDataRace,      // "BUG: KCSAN: data-race in A / B"
  kUndefinedBehavior,  // "UBSAN: shift-out-of-bounds in FILE:LINE:COL"
};

const char* ReportKindName(ReportKind kind);

struct Report {
  ReportKind kind = ReportKind::kNone;
  std::string title;  // first line, stable across runs: kind + function
  std::string body;   // object state the kernel prints
  std::string task;   // "dd:1", "kworker/0:2", or "" at quiescence
  long step = -1;     // the scheduling step it fired at, -1 outside runs
  // A warning (the kernel prints it and goes on: WARN, "Bad page state",
  // a DEBUG_VM check on a production kernel); the run continues. Fatal
  // reports (oops, KASAN, hang, quiescence) end it.
  bool warning = false;
  // The contract that fired (model/kernel/checkers/contracts.h): its id and the
  // kernel source it models ("mm/filemap.c unlock_page(): VM_BUG_ON_PAGE
  // [3.13-6.12]"). Empty for reports made outside the registry.
  std::string contract;
  std::string source;
  // A lint finding: no kernel counterpart (reported apart, never a kernel
  // violation; in reports only when a run asks for lint).
  bool lint = false;

  bool empty() const { return kind == ReportKind::kNone; }
  // The same finding, for minimisation and replay checks.
  bool SameAs(const Report& o) const {
    return kind == o.kind && title == o.title;
  }
  std::string ToString() const;
};

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_BASE_REPORT_H_
