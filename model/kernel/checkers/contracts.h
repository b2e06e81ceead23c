// SPDX-License-Identifier: GPL-2.0-only
// This file implements the contract registry: every check the model makes,
// named by the kernel source it models (file, function, the macro or
// facility that reports it: VM_BUG_ON_PAGE, WARN, BUG_ON, KASAN, kmemleak,
// lockdep, might_sleep, the hung-task detector, ODEBUG, ...) and the kernel
// versions it holds for. A check with no kernel counterpart is a lint
// finding: reported apart, never counted as a kernel violation.
#ifndef SQUASHLAB_MODEL_KERNEL_CHECKERS_CONTRACTS_H_
#define SQUASHLAB_MODEL_KERNEL_CHECKERS_CONTRACTS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "model/base/report.h"

namespace squashlab {

// One value per check site family. Kernel::Bug / Warn / Record / DebugBug /
// Lint take one; the registry (contracts.cc) has exactly one entry each.
enum class Check : uint16_t {
  kUnattributed = 0,  // the old call shape: a report with no citation
  // pages (mm/filemap.c, include/linux/mm.h, mm/page_alloc.c)
  kGetPageZero,
  kPutPageZero,
  kUnlockPageUnlocked,
  kFolioEndReadUnlocked,
  kFolioEndReadUptodate,
  kBadPageState,
  kNotAPage,
  kPageFreedAccess,
  kDeletePageUnlocked,
  kAddPageBusy,
  kFindGetPageSoftLockup,
  kPageLockedAtQuiescence,
  kPageNotUptodateAtQuiescence,
  kPageRefLeak,
  // buffer heads (fs/buffer.c)
  kBrelseFreeBuffer,
  kSubmitBhUnlocked,
  kSubmitBhUnmapped,
  kSubmitBhNoEndIo,
  kSubmitBhUnderIo,
  kUnlockBufferUnlocked,
  kBhEndIoNotUnderIo,
  kBhUseAfterFree,
  kBhRefLeak,
  kBhLockedAtQuiescence,
  // bios (block/bio.c)
  kBioAddPageSubmitted,
  kSubmitBioNoEndIo,
  kSubmitBioNoBdev,
  kSubmitBioTwice,
  kBioEndioNotInFlight,
  kBioPutZero,
  kBioUseAfterFree,
  kBioLeak,
  // memory (arch/x86/mm/fault.c, mm/kasan, mm/slub.c, mm/kmemleak.c, ...)
  kNullDereference,
  kPagingRequest,
  kPoisonFreePointer,
  kNonCanonicalPointer,
  kHostPageFault,
  kStackGuard,
  kInvalidOpcode,
  kDivideError,
  kUninitPointer,
  kKmsanInfoleak,
  kKasanUseAfterFree,
  kKasanDoubleFree,
  kKasanOutOfBounds,
  kSlabDoubleFree,
  kSlabOutOfBounds,
  kOdebugFreeActiveWork,
  kKfreeVmalloc,
  kVfreeNonexistent,
  kKunmapLocalOrder,
  kKmapLocalUnmapped,
  kKmallocLeak,
  kKmemleakUnreferenced,
  kWorkFuncNull,
  kWorkQueuedAtQuiescence,
  // context and locking (kernel/sched/core.c, lib/, kernel/locking/)
  kSchedulingWhileAtomic,
  kSleepInvalidContext,
  kSmpProcessorIdPreemptible,
  kPreemptCountUnderflow,
  kMutexUnlockNotOwner,
  kSpinlockWrongOwner,
  kLockdepCircular,
  kLockdepInconsistent,
  kLockdepRecursive,
  kLockdepIrqOrder,
  kLockdepIrqInversion,
  kKcsanDataRace,
  kUbsanArrayIndex,
  kUbsanShift,
  kUbsanInvalidLoad,
  kSleepOutsideTask,
  kHungTask,
  kBugOn,
  // the lab's own oracles (what a user sees; not a kernel check, counted)
  kWrongData,
  kStepLimit,
  kCount
};

// kKernel: the kernel makes this check (a debug config may be needed);
// kOracle: the lab's data oracle or run budget, counted like a kernel
// report (a user sees it: wrong bytes, a read that never ends);
// kLint: no kernel counterpart; off in verdicts unless asked for.
enum class CheckClass : uint8_t { kKernel, kOracle, kLint };

struct Contract {
  Check check;
  const char* name;  // stable id, "unlock_page.unlocked"
  CheckClass cls;
  ReportKind kind;
  const char* macro;     // VM_BUG_ON_PAGE, WARN, KASAN, ... ("" for lint)
  const char* file;      // the kernel file it models ("" for lint)
  const char* function;  // the kernel function that checks
  const char* versions;  // the kernel versions it holds for
  const char* note;      // what differs by version, or why it is lint
};

const Contract& ContractOf(Check c);
const std::vector<Contract>& AllContracts();
const char* CheckClassName(CheckClass c);
// "mm/filemap.c unlock_page(): VM_BUG_ON_PAGE [3.13-6.12]"; for lint,
// "lint: <why>".
std::string Citation(const Contract& c);
// The markdown table model/README.md carries (tools regenerate it).
std::string ContractsMarkdownTable();

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_KERNEL_CHECKERS_CONTRACTS_H_
