// SPDX-License-Identifier: GPL-2.0-only
// This file implements the contract registry: one entry per check, with
// the kernel source it models and the versions it holds for.
#include "model/kernel/checkers/contracts.h"

#include <cstdlib>

namespace squashlab {
namespace {

using C = Check;
using K = ReportKind;
constexpr CheckClass kKernel = CheckClass::kKernel;
constexpr CheckClass kOracle = CheckClass::kOracle;
constexpr CheckClass kLint = CheckClass::kLint;

// In enum order (ContractOf checks it).
const Contract kContracts[] = {
    {C::kUnattributed, "unattributed", kLint, K::kNone, "", "", "", "",
     "a report made through the old call shape, with no contract"},
    // --- pages ---
    {C::kGetPageZero, "get_page.zero", kKernel, K::kPageBug, "VM_BUG_ON_PAGE",
     "include/linux/mm.h", "get_page", "3.13-6.12",
     "3.13: VM_BUG_ON(count <= 0); 6.x: folio_get's VM_BUG_ON_FOLIO "
     "(DEBUG_VM)"},
    {C::kPutPageZero, "put_page.zero", kKernel, K::kPageBug, "VM_BUG_ON_PAGE",
     "include/linux/mm.h", "put_page_testzero", "3.13-6.12",
     "3.13: VM_BUG_ON(count == 0); 6.x: folio_put_testzero's "
     "VM_BUG_ON_FOLIO (DEBUG_VM)"},
    {C::kUnlockPageUnlocked, "unlock_page.unlocked", kKernel, K::kPageBug,
     "VM_BUG_ON_PAGE", "mm/filemap.c", "unlock_page", "3.13-6.12",
     "3.13: VM_BUG_ON(!PageLocked); 6.x: folio_unlock's VM_BUG_ON_FOLIO "
     "(DEBUG_VM)"},
    {C::kFolioEndReadUnlocked, "folio_end_read.unlocked", kKernel, K::kPageBug,
     "VM_BUG_ON_FOLIO", "mm/filemap.c", "folio_end_read", "6.12",
     "VM_BUG_ON_FOLIO(!folio_test_locked(folio)) (DEBUG_VM; filemap.c:1538 "
     "in 6.12); 6.1 has no folio_end_read"},
    {C::kFolioEndReadUptodate, "folio_end_read.uptodate", kKernel, K::kPageBug,
     "VM_BUG_ON_FOLIO", "mm/filemap.c", "folio_end_read", "6.12",
     "VM_BUG_ON_FOLIO(folio_test_uptodate(folio)) (DEBUG_VM; filemap.c:1539 "
     "in 6.12): the read that ends must not find the folio uptodate, "
     "whatever its outcome; 6.1 has no folio_end_read"},
    {C::kBadPageState, "page_alloc.bad_page", kKernel, K::kBadPageState,
     "bad_page", "mm/page_alloc.c", "free_pages_check", "3.13-6.12",
     "a page freed with a mapping or PG_locked; printed, tainted, leaked; "
     "6.x: free_page_is_bad"},
    {C::kNotAPage, "page.wild_pointer", kKernel, K::kGeneralProtection,
     "general protection fault", "arch/x86/kernel/traps.c",
     "do_general_protection", "3.13-6.12",
     "a page pointer that points at no struct page"},
    {C::kPageFreedAccess, "page.freed_access", kLint, K::kUseAfterFree, "", "",
     "", "",
     "struct page lives in the memmap and is never freed: neither KASAN nor "
     "any other check reports an access to a free page"},
    {C::kDeletePageUnlocked, "delete_from_page_cache.unlocked", kKernel,
     K::kPageBug, "BUG_ON", "mm/filemap.c", "delete_from_page_cache",
     "3.13-6.12", "6.x: filemap_remove_folio's BUG_ON(!folio_test_locked)"},
    {C::kAddPageBusy, "add_to_page_cache.busy", kLint, K::kPageBug, "", "", "",
     "",
     "no kernel check: add_to_page_cache sets PG_locked non-atomically and "
     "overwrites page->mapping"},
    {C::kFindGetPageSoftLockup, "find_get_page.soft_lockup", kKernel,
     K::kStepLimit, "soft lockup", "kernel/watchdog.c", "watchdog_timer_fn",
     "3.13-6.12",
     "find_get_page retries page_cache_get_speculative forever on a page "
     "freed while in the page cache"},
    {C::kPageLockedAtQuiescence, "quiescence.page_locked", kLint,
     K::kQuiescence, "", "", "", "",
     "the kernel says nothing about a locked page until someone waits for "
     "it (then the hung-task detector)"},
    {C::kPageNotUptodateAtQuiescence, "quiescence.page_not_uptodate", kLint,
     K::kQuiescence, "", "", "", "",
     "legal: after a failed read the MM retries through ->readpage / "
     "read_folio"},
    {C::kPageRefLeak, "quiescence.page_ref_leak", kLint, K::kLeak, "", "", "",
     "", "kmemleak does not track page references"},
    // --- buffer heads ---
    {C::kBrelseFreeBuffer, "brelse.free_buffer", kKernel, K::kBrelseFreeBuffer,
     "WARN", "fs/buffer.c", "__brelse", "3.13-6.12",
     "\"VFS: brelse: Trying to free free buffer\" when b_count is already 0; "
     "put_bh itself is a silent atomic_dec"},
    {C::kSubmitBhUnlocked, "submit_bh.unlocked", kKernel, K::kBufferBug,
     "BUG_ON", "fs/buffer.c", "_submit_bh", "3.13-6.12",
     "BUG_ON(!buffer_locked(bh)); 6.x: submit_bh_wbc"},
    {C::kSubmitBhUnmapped, "submit_bh.unmapped", kKernel, K::kBufferBug,
     "BUG_ON", "fs/buffer.c", "_submit_bh", "3.13-6.12",
     "BUG_ON(!buffer_mapped(bh)); 6.x: submit_bh_wbc"},
    {C::kSubmitBhNoEndIo, "submit_bh.no_end_io", kKernel, K::kBufferBug,
     "BUG_ON", "fs/buffer.c", "_submit_bh", "3.13-6.12",
     "BUG_ON(!bh->b_end_io); 6.x: submit_bh_wbc"},
    {C::kSubmitBhUnderIo, "submit_bh.under_io", kLint, K::kBufferBug, "", "",
     "", "", "no kernel check: the buffer lock is what serialises I/O"},
    {C::kUnlockBufferUnlocked, "unlock_buffer.unlocked", kLint, K::kBufferBug,
     "", "", "", "", "unlock_buffer clears BH_Lock without a check"},
    {C::kBhEndIoNotUnderIo, "end_bio_bh_io_sync.not_under_io", kLint,
     K::kBufferBug, "", "", "", "",
     "no kernel check: a bio completed twice completes its buffer twice"},
    {C::kBhUseAfterFree, "buffer_head.use_after_free", kKernel,
     K::kUseAfterFree, "KASAN", "mm/kasan/report.c", "kasan_report", "4.0-6.12",
     "a buffer_head freed by try_to_free_buffers (bh_cachep) used again"},
    {C::kBhRefLeak, "quiescence.buffer_ref_leak", kLint, K::kLeak, "", "", "",
     "",
     "a referenced buffer_head is not a leak to kmemleak; the page stays "
     "pinned"},
    {C::kBhLockedAtQuiescence, "quiescence.buffer_locked", kLint,
     K::kQuiescence, "", "", "", "",
     "nothing reports a locked buffer until someone waits for it"},
    // --- bios ---
    {C::kBioAddPageSubmitted, "bio_add_page.submitted", kLint, K::kBufferBug,
     "", "", "", "", "no kernel check on a bio in flight"},
    {C::kSubmitBioNoEndIo, "submit_bio.no_end_io", kLint, K::kBufferBug, "", "",
     "", "", "the kernel calls a NULL bi_end_io at completion"},
    {C::kSubmitBioNoBdev, "submit_bio.no_bdev", kLint, K::kBufferBug, "", "",
     "", "", "the kernel dereferences bio->bi_bdev: a NULL dereference"},
    {C::kSubmitBioTwice, "submit_bio.twice", kLint, K::kBufferBug, "", "", "",
     "", "no kernel check on resubmitting a bio in flight"},
    {C::kBioEndioNotInFlight, "bio_endio.not_in_flight", kLint, K::kBufferBug,
     "", "", "", "", "no kernel check (6.x: bio_remaining_done counts)"},
    {C::kBioPutZero, "bio_put.zero", kKernel, K::kBufferBug, "BIO_BUG_ON",
     "block/bio.c", "bio_put", "3.13-6.12",
     "BIO_BUG_ON(!atomic_read(&bio->bi_cnt)) (fs/bio.c in 3.13)"},
    {C::kBioUseAfterFree, "bio.use_after_free", kKernel, K::kUseAfterFree,
     "KASAN", "mm/kasan/report.c", "kasan_report", "4.0-6.12",
     "a bio used after bio_put freed it"},
    {C::kBioLeak, "quiescence.bio_leak", kLint, K::kLeak, "", "", "", "",
     "kmemleak reports only unreferenced objects; the model does not scan "
     "for references"},
    // --- memory ---
    {C::kNullDereference, "fault.null_dereference", kKernel,
     K::kNullDereference, "oops", "arch/x86/mm/fault.c", "no_context",
     "3.13-6.12",
     "\"unable to handle kernel NULL pointer dereference at\" (6.x: "
     "\"kernel NULL pointer dereference, address:\")"},
    {C::kPagingRequest, "fault.paging_request", kKernel, K::kGeneralProtection,
     "oops", "arch/x86/mm/fault.c", "no_context", "3.13-6.12",
     "\"unable to handle kernel paging request at\""},
    {C::kPoisonFreePointer, "fault.poison_free_pointer", kKernel,
     K::kGeneralProtection, "general protection fault",
     "arch/x86/kernel/traps.c", "do_general_protection", "3.13-6.12",
     "a non-canonical pointer (POISON_FREE, slub_debug=P) dereferenced"},
    {C::kNonCanonicalPointer, "fault.general_protection", kKernel,
     K::kGeneralProtection, "general protection fault",
     "arch/x86/kernel/traps.c", "do_general_protection", "3.13-6.12",
     "a non-canonical pointer dereferenced: another object's bytes (text, "
     "code, a count) read as a pointer from a reused slab object"},
    {C::kHostPageFault, "fault.unmapped", kKernel, K::kGeneralProtection,
     "oops", "arch/x86/mm/fault.c", "no_context", "3.13-6.12",
     "the CPU faulted on an address no check had flagged (a stale or "
     "corrupt pointer into unmapped memory, or a call through one): the "
     "host's SIGSEGV/SIGBUS, landed in the faulting task "
     "(model/sched/task_fault.h); 6.x prints \"BUG: unable to handle page "
     "fault for address:\""},
    {C::kStackGuard, "fault.stack_guard", kKernel, K::kCpuException, "oops",
     "arch/x86/kernel/traps.c", "handle_stack_overflow", "4.9-6.12",
     "a kernel stack overflow into the guard page below the task's stack "
     "(CONFIG_VMAP_STACK); before 4.9 the overflow corrupted thread_info "
     "silently"},
    {C::kInvalidOpcode, "trap.invalid_opcode", kKernel, K::kCpuException,
     "oops", "arch/x86/kernel/traps.c", "do_invalid_op", "3.13-6.12",
     "\"invalid opcode: 0000 [#1]\": execution reached bytes that are not "
     "an instruction (a jump through a corrupt pointer); 6.x: "
     "exc_invalid_op"},
    {C::kDivideError, "trap.divide_error", kKernel, K::kCpuException, "oops",
     "arch/x86/kernel/traps.c", "do_divide_error", "3.13-6.12",
     "\"divide error: 0000 [#1]\": an integer division by zero; 6.x: "
     "exc_divide_error"},
    {C::kUninitPointer, "kmsan.uninit_pointer", kKernel, K::kUninitValue,
     "KMSAN", "mm/kmsan/report.c", "kmsan_report", "6.1-6.12",
     "an uninitialised pointer field (POISON_INUSE) used; before 6.1 a "
     "general protection fault"},
    {C::kKmsanInfoleak, "kmsan.kernel_infoleak", kKernel, K::kUninitValue,
     "KMSAN", "mm/kmsan/hooks.c", "kmsan_copy_to_user", "6.1-6.12",
     "bytes of a page nobody wrote since its allocation copied to user "
     "space (a read, a readlink): \"BUG: KMSAN: kernel-infoleak\""},
    {C::kKasanUseAfterFree, "kasan.use_after_free", kKernel, K::kUseAfterFree,
     "KASAN", "mm/kasan/report.c", "kasan_report", "4.0-6.12",
     "a load or store of a freed kmalloc object"},
    {C::kKasanDoubleFree, "kasan.double_free", kKernel, K::kDoubleFree, "KASAN",
     "mm/kasan/report.c", "kasan_report_invalid_free", "4.0-6.12",
     "\"double-free or invalid-free\""},
    {C::kKasanOutOfBounds, "kasan.out_of_bounds", kKernel, K::kOutOfBounds,
     "KASAN", "mm/kasan/report.c", "kasan_report", "4.0-6.12",
     "a load or store of a kmalloc redzone (past the object's requested "
     "size) or of slab memory never allocated"},
    {C::kSlabDoubleFree, "slub.double_free", kKernel, K::kDoubleFree,
     "freelist corruption", "mm/slub.c", "set_freepointer", "3.13-6.12",
     "a double kfree links the object twice, silently; the cache hands it "
     "out, then follows the free pointer its owner overwrote: the oops in a "
     "later kmalloc (2013: __kmalloc_track_caller); SLAB_FREELIST_HARDENED's "
     "BUG_ON(object == fp) catches the immediate case"},
    {C::kSlabOutOfBounds, "slub.unmapped", kKernel, K::kGeneralProtection,
     "oops", "arch/x86/mm/fault.c", "no_context", "3.13-6.12",
     "a load past the last object of a slab into unmapped memory"},
    {C::kOdebugFreeActiveWork, "odebug.free_active_work", kKernel,
     K::kWorkFreedActive, "ODEBUG", "lib/debugobjects.c",
     "debug_check_no_obj_freed", "3.13-6.12",
     "a queued work_struct freed; process_one_work deactivates the object "
     "when it claims the work, so freeing a running one is legal"},
    {C::kKfreeVmalloc, "slab.kfree_vmalloc", kKernel, K::kDoubleFree,
     "VIRTUAL_BUG_ON", "arch/x86/mm/physaddr.c", "__phys_addr", "6.1-6.12",
     "kfree of a vmalloc'd object: kfree's virt_to_folio (mm/slub.c) of a "
     "vmalloc address; a BUG with CONFIG_DEBUG_VIRTUAL (debug kernel), a "
     "page fault reading the bogus struct page without it (production)"},
    {C::kVfreeNonexistent, "vmalloc.vfree_nonexistent", kKernel, K::kDoubleFree,
     "WARN", "mm/vmalloc.c", "vfree", "6.1-6.12",
     "\"Trying to vfree() nonexistent vm area\": remove_vm_area finds no "
     "live area at the address (a kmalloc'd object, or one vfreed before); "
     "nothing is freed"},
    {C::kKunmapLocalOrder, "highmem.kunmap_local_order", kKernel,
     K::kBadContext, "WARN_ON_ONCE", "mm/highmem.c", "kunmap_local_indexed",
     "5.11-6.12",
     "CONFIG_DEBUG_KMAP_LOCAL_FORCE_MAP: an unmap that is not of the "
     "innermost local mapping, or of none"},
    {C::kKmapLocalUnmapped, "highmem.kmap_local_unmapped", kKernel,
     K::kGeneralProtection, "oops", "mm/highmem.c", "kunmap_local_indexed",
     "5.11-6.12",
     "CONFIG_DEBUG_KMAP_LOCAL_FORCE_MAP (lib/Kconfig.debug): a lowmem page "
     "is mapped at a fixmap slot too (__kmap_local_pfn_prot), whose PTE "
     "kunmap_local clears; an access through the address after "
     "kunmap_local, or past the page into a guard slot, is "
     "arch/x86/mm/fault.c's \"BUG: unable to handle page fault for "
     "address\""},
    {C::kKmallocLeak, "quiescence.kmalloc_live", kLint, K::kLeak, "", "", "",
     "",
     "kmemleak reports only objects no pointer reaches; the model does not "
     "scan stacks, data and the scenario's objects"},
    {C::kKmemleakUnreferenced, "kmemleak.unreferenced", kKernel, K::kLeak,
     "kmemleak", "mm/kmemleak.c", "kmemleak_scan", "2.6.31-6.12",
     "after a real tree's unmount: an object no pointer reaches from the "
     "module's data and bss or from an object so reached (DEBUG_KMEMLEAK)"},
    {C::kWorkFuncNull, "workqueue.null_func", kKernel, K::kNullDereference,
     "oops", "arch/x86/mm/fault.c", "no_context", "3.13-6.12",
     "process_one_work calls a NULL work->func"},
    {C::kWorkQueuedAtQuiescence, "quiescence.work_queued", kLint,
     K::kQuiescence, "", "", "", "", "a run ended with a work item queued"},
    // --- context and locking ---
    {C::kSchedulingWhileAtomic, "sched.scheduling_while_atomic", kKernel,
     K::kSchedulingWhileAtomic, "__schedule_bug", "kernel/sched/core.c",
     "schedule_debug", "3.13-6.12",
     "a task that sleeps with preemption off or in interrupt context"},
    {C::kSleepInvalidContext, "sched.might_sleep", kKernel,
     K::kSleepInvalidContext, "might_sleep", "kernel/sched/core.c",
     "__might_sleep", "3.13-6.12",
     "CONFIG_DEBUG_ATOMIC_SLEEP (debug kernel): a function that can sleep "
     "called with preemption or irqs off or in interrupt context"},
    {C::kSmpProcessorIdPreemptible, "smp_processor_id.preemptible", kKernel,
     K::kBadContext, "DEBUG_PREEMPT", "lib/smp_processor_id.c",
     "debug_smp_processor_id", "3.13-6.12", ""},
    {C::kPreemptCountUnderflow, "preempt.underflow", kKernel, K::kBadContext,
     "DEBUG_LOCKS_WARN_ON", "kernel/sched/core.c", "preempt_count_sub",
     "3.13-6.12", "CONFIG_DEBUG_PREEMPT"},
    {C::kMutexUnlockNotOwner, "mutex.unlock_not_owner", kKernel, K::kBadContext,
     "DEBUG_LOCKS_WARN_ON", "kernel/locking/mutex-debug.c",
     "debug_mutex_unlock", "3.13-6.12",
     "CONFIG_DEBUG_MUTEXES (kernel/mutex-debug.c before 3.15)"},
    {C::kSpinlockWrongOwner, "spinlock.wrong_owner", kKernel, K::kBadContext,
     "SPIN_BUG_ON", "kernel/locking/spinlock_debug.c", "debug_spin_unlock",
     "3.13-6.12", "CONFIG_DEBUG_SPINLOCK (lib/spinlock_debug.c before 3.15)"},
    {C::kLockdepCircular, "lockdep.circular", kKernel, K::kLockdep, "lockdep",
     "kernel/locking/lockdep.c", "check_noncircular", "3.13-6.12",
     "CONFIG_PROVE_LOCKING (kernel/lockdep.c before 3.15): an order that "
     "closes a cycle in the lock-class graph, without the deadlock"},
    {C::kLockdepInconsistent, "lockdep.inconsistent_irq", kKernel, K::kLockdep,
     "lockdep", "kernel/locking/lockdep.c", "print_usage_bug", "3.13-6.12",
     "a spinlock class taken in hardirq context and with hardirqs enabled "
     "elsewhere ({IN-HARDIRQ-W} -> {HARDIRQ-ON-W}), without the interrupt "
     "having to arrive while it is held"},
    {C::kLockdepRecursive, "lockdep.recursive", kKernel, K::kLockdep, "lockdep",
     "kernel/locking/lockdep.c", "check_deadlock", "3.13-6.12",
     "a lock class taken while the task holds it, with no nesting "
     "annotation (mutex_lock_nested, spin_lock_nested) telling them apart"},
    {C::kLockdepIrqOrder, "lockdep.irq_safe_to_unsafe", kKernel, K::kLockdep,
     "lockdep", "kernel/locking/lockdep.c", "check_irq_usage", "3.13-6.12",
     "a new order from a class taken in hardirq context to one taken with "
     "hardirqs enabled (print_bad_irq_dependency)"},
    {C::kLockdepIrqInversion, "lockdep.irq_inversion", kKernel, K::kLockdep,
     "lockdep", "kernel/locking/lockdep.c", "check_usage_forwards", "3.13-6.12",
     "a class gains a hardirq usage that an order already recorded "
     "contradicts (print_irq_inversion_bug)"},
    {C::kKcsanDataRace, "kcsan.data_race", kKernel, K::kDataRace, "KCSAN",
     "kernel/kcsan/report.c", "print_report", "5.8-6.12",
     "two accesses of two tasks to one location, at least one a write and "
     "one plain, with neither happening before the other (CONFIG_KCSAN: "
     "marked accesses never race with each other; an aligned plain write "
     "of at most a word counts as marked)"},
    {C::kUbsanArrayIndex, "ubsan.array_index_out_of_bounds", kKernel,
     K::kUndefinedBehavior, "UBSAN", "lib/ubsan.c",
     "__ubsan_handle_out_of_bounds", "5.7-6.12",
     "an array indexed past its declared bound (UBSAN_BOUNDS): \"index 5 "
     "is out of range for type 'int [4]'\"; a warning, the code goes on"},
    {C::kUbsanShift, "ubsan.shift_out_of_bounds", kKernel,
     K::kUndefinedBehavior, "UBSAN", "lib/ubsan.c",
     "__ubsan_handle_shift_out_of_bounds", "4.5-6.12",
     "a shift by a negative amount or by the type's width or more, or a "
     "left shift of a negative or overflowing signed value (UBSAN_SHIFT); "
     "a warning, the code goes on"},
    {C::kUbsanInvalidLoad, "ubsan.invalid_load", kKernel, K::kUndefinedBehavior,
     "UBSAN", "lib/ubsan.c", "__ubsan_handle_load_invalid_value", "4.5-6.12",
     "a bool holding neither 0 nor 1, or an enum a value outside its range, "
     "loaded (UBSAN_BOOL, UBSAN_ENUM); a warning, the code goes on"},
    {C::kSleepOutsideTask, "model.sleep_outside_task", kLint, K::kBadContext,
     "", "", "", "", "model misuse: a wait outside any task"},
    {C::kHungTask, "hung_task", kKernel, K::kHungTask, "hung task",
     "kernel/hung_task.c", "check_hung_task", "3.13-6.12",
     "a task in D state that can never be woken (the detector's 120 s)"},
    {C::kBugOn, "bug_on", kKernel, K::kAssertion, "BUG_ON",
     "include/asm-generic/bug.h", "BUG_ON", "3.13-6.12",
     "a BUG_ON in the code under test (\"kernel BUG at file:line!\")"},
    // --- oracles ---
    {C::kWrongData, "oracle.wrong_data", kOracle, K::kWrongData, "", "", "", "",
     "the data oracle: a read returned bytes or a count other than the "
     "file's (or EIO with no fault injected), or an uptodate page-cache "
     "page holds bytes other than the file's"},
    {C::kStepLimit, "oracle.step_limit", kOracle, K::kStepLimit, "", "", "", "",
     "the run budget: a run that never finishes (a livelock)"},
};
static_assert(sizeof kContracts / sizeof kContracts[0] ==
              static_cast<size_t>(Check::kCount));

}  // namespace

const Contract& ContractOf(Check c) {
  const Contract& e = kContracts[static_cast<size_t>(c)];
  if (e.check != c) std::abort();  // the table is out of enum order
  return e;
}

const std::vector<Contract>& AllContracts() {
  static const auto* all =
      new std::vector<Contract>(std::begin(kContracts), std::end(kContracts));
  return *all;
}

const char* CheckClassName(CheckClass c) {
  switch (c) {
    case CheckClass::kKernel:
      return "kernel";
    case CheckClass::kOracle:
      return "oracle";
    case CheckClass::kLint:
      return "lint";
  }
  return "?";
}

std::string Citation(const Contract& c) {
  if (c.cls == CheckClass::kLint) return std::string("lint: ") + c.note;
  if (c.cls == CheckClass::kOracle) return std::string("oracle: ") + c.note;
  return std::string(c.file) + " " + c.function + "(): " + c.macro + " [" +
         c.versions + "]";
}

namespace {
std::string Cell(const char* s) {
  std::string out;
  for (const char* p = s; *p; ++p) {
    if (*p == '|') out += '\\';
    out += *p;
  }
  return out;
}
}  // namespace

std::string ContractsMarkdownTable() {
  std::string s =
      "| check | class | report | kernel source | reported by | versions | "
      "notes |\n| --- | --- | --- | --- | --- | --- | --- |\n";
  for (const Contract& c : kContracts) {
    if (c.check == Check::kUnattributed) continue;
    std::string where =
        c.file[0] ? std::string("`") + c.file + "` `" + c.function + "()`" : "";
    s += "| `" + std::string(c.name) + "` | " + CheckClassName(c.cls) + " | " +
         ReportKindName(c.kind) + " | " + where + " | " + Cell(c.macro) +
         " | " + c.versions + " | " + Cell(c.note) + " |\n";
  }
  return s;
}

}  // namespace squashlab
