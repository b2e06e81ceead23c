// SPDX-License-Identifier: GPL-2.0-only
// This file implements Kernel: the emulated kernel of one run — its executor,
// its object registries (pages, buffer heads, bios, work items, the kmalloc
// heap), its wait queues, and the generic checker that turns every
// contract violation into one kernel-style Report.
#ifndef SQUASHLAB_MODEL_KERNEL_KERNEL_H_
#define SQUASHLAB_MODEL_KERNEL_KERNEL_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "model/base/report.h"
#include "model/kernel/checkers/contracts.h"
#include "model/kernel/checkers/kcsan.h"
#include "model/kernel/checkers/lockdep.h"
#include "model/kernel/fault_inject.h"
#include "model/kernel/run_mutex.h"
#include "model/kernel/slab.h"
#include "model/kernel/wait_queue.h"
#include "model/sched/executor.h"
#include "model/sched/run_hooks.h"
#include "model/sched/task_fault.h"

namespace squashlab {

struct page;
struct address_space;
struct buffer_head;
struct bio;
struct work_struct;
struct block_device;

// The kernel whose memory management drives the file system under test.
enum class MmEra : uint8_t { k3_13, k6_1, k6_12 };

struct KernelConfig {
  int ncpus = 2;
  bool preempt_rt = false;   // local_lock is a sleeping per-CPU lock
  long max_steps = 1000000;  // a run longer than this is reported (livelock)
  uint64_t seed = 1;         // the run's seed: fault plans draw from it
  // A debug kernel (the default): KASAN, SLUB poisoning and quarantine,
  // debugobjects, DEBUG_VM. Off, a production kernel like the one of the
  // the 2013 thread oopses: kfree keeps the object's bytes and the next kmalloc
  // from the same cache reuses it (slab.h), nothing checks freed memory,
  // and a DEBUG_VM check (VM_BUG_ON_PAGE) is recorded as a warning while
  // execution goes on as the kernel without DEBUG_VM would.
  bool debug = true;
  // Whose MM drives the read path (model/mm): 3.13's do_generic_file_read
  // and ondemand_readahead, or 6.1's / 6.12's filemap_read and readahead
  // window. In 6.x a page left in the cache unlocked and !uptodate without
  // PG_error is re-read through ->read_folio by the next reader
  // (filemap_update_page), so it is a legal state at quiescence; 3.13's
  // readers returned EIO on it instead.
  MmEra mm_era = MmEra::k3_13;
  bool mm_rereads_not_uptodate() const { return mm_era != MmEra::k3_13; }
  // Lint findings (checks with no kernel counterpart, contracts.h) are
  // always kept in Kernel::lints(); with `lint` they are also reports
  // (warnings titled "lint: ...").
  bool lint = false;
  // KMSAN's view of page memory: a fresh page is filled with a pattern that
  // depends on the byte's offset (UninitPagePattern, page.h) instead of
  // POISON_INUSE, so that bytes of a page nobody wrote are told apart
  // where they reach user space (a run of them: mm/kmsan's kernel-infoleak).
  bool kmsan = false;
  // The lock validator's class graph (debug kernel), shared by every copy
  // of this config. A scenario's RunSpec makes one when none is set, so
  // every run of one campaign adds to the same graph; a run without one
  // has a graph of its own.
  std::shared_ptr<LockdepGraph> lockdep;
  // The data-race detector (kcsan.h) over the code under test's
  // instrumented accesses; with kcsan_watch, a plain access to an object
  // another task touched is a scheduling point.
  bool kcsan = false;
  bool kcsan_watch = false;
  // Allocation failures of the code under test (fault_inject.h).
  FaultInjectConfig fault_inject;
};

// Where a work item is: queued (pending, not started) or running.
struct WorkState {
  bool queued = false;
  int running = 0;     // workers executing it now
  int runner_id = -1;  // the task running it (self-free is legal)
};

class Kernel : public RunHooks, private KcsanHost {
 public:
  // The objects that own a wait queue each (Waitqueue, kernel_internal.h).
  enum class WaitOn : uint8_t { kPage, kBuffer, kWork };
  // Attaches itself to `executor` as the run it serves.
  Kernel(KernelConfig config, Executor* executor);
  ~Kernel() override;
  Kernel(const Kernel&) = delete;
  Kernel& operator=(const Kernel&) = delete;

  // The kernel of the run on this thread (the kernel's `current`). Set by
  // KernelScope; executors set it on their worker threads.
  // Inline (every API call asks): a constant-initialised thread_local is
  // read directly, with no call and no TLS wrapper.
  static Kernel& Current() { return *current_; }
  static Kernel* CurrentOrNull() { return current_; }
  static void SetCurrent(Kernel* k) { current_ = k; }

  const KernelConfig& config() const { return config_; }
  Task* current_task() { return exec_->Running(); }  // the kernel's `current`
  Task* Spawn(TaskSpec spec) {
    if (make_it_fail_ && spec.context == TaskContext::kProcess)
      spec.make_it_fail = true;
    if (kcsan_) spec.body = kcsan_->Forked(std::move(spec.body));
    return exec_->Spawn(std::move(spec));
  }
  // From now on the process-context tasks spawned have make-it-fail set
  // (a shell that wrote 1 to /proc/self/make-it-fail, then started them):
  // a fault plan (KernelConfig::fault_inject) picks its failures among
  // their allocations.
  void SetMakeItFail(bool on) { make_it_fail_ = on; }
  // The data-race detector of a KCSAN kernel (KernelConfig::kcsan), or null.
  Kcsan* kcsan() { return kcsan_.get(); }
  void Charge(CostKind kind, uint64_t units = 1) { exec_->Charge(kind, units); }
  // The run's clock (virtual in simulate mode), and time passing for the
  // current task: a device's service time, a timer's wait.
  uint64_t NowNs() { return exec_->NowNs(); }
  void Delay(uint64_t ns) { exec_->Delay(ns); }

  // --- reports -----------------------------------------------------------
  // A run collects reports in the order they fire: any number of warnings
  // and at most one fatal report, which ends the run.
  // Every check names its contract (contracts.h): the report carries the
  // contract's kind, id and kernel citation. A lint contract never makes a
  // kernel report: Record and Warn with one are Lint; Bug with one records
  // the lint and ends the run (the model cannot go on).
  // Records a fatal report and ends the current task's run the way an oops
  // does: by throwing TaskOops (the executor stops the others).
  [[noreturn]] void Bug(Check check, std::string title, std::string body);
  // Records a fatal report without unwinding (hangs, quiescence checks).
  // Ignored once a fatal report was recorded (the first one wins).
  void Record(Check check, std::string title, std::string body);
  // Records a warning and returns: the kernel printed it and went on
  // ("VFS: brelse: Trying to free free buffer", "BUG: Bad page state").
  void Warn(Check check, std::string title, std::string body);
  // Bug on a debug kernel (config().debug), Warn on a production one:
  // for DEBUG_VM's checks, which a production kernel does not make.
  void DebugBug(Check check, std::string title, std::string body);
  // A lint finding: kept in lints(); a warning in reports() too when
  // config().lint asks for it. Returns.
  void Lint(Check check, std::string title, std::string body);
  std::vector<Report> lints() const;
  // The old call shapes: a report with no contract (Check::kUnattributed).
  [[noreturn]] void Bug(ReportKind kind, std::string title, std::string body);
  void Record(ReportKind kind, std::string title, std::string body);
  void Warn(ReportKind kind, std::string title, std::string body);
  void DebugBug(ReportKind kind, std::string title, std::string body);
  bool reported() const;  // any report, warnings included
  bool fatal() const;     // a fatal report: the run ended on it
  // A real tree's super block was torn down cleanly (kill_block_super): the
  // kmalloc objects left at quiescence are kmemleak's to judge.
  void NoteSuperBlockGone() { super_block_gone_ = true; }
  bool super_block_gone() const { return super_block_gone_; }
  Report report() const;  // the first report of the run (empty if none)
  std::vector<Report> reports() const;  // all of them, in order
  // Real kernel code (model/linux) names the source line each task last
  // called the API from; reports then end with "called from file.c:N fn".
  void SetCallSite(std::function<std::string()> fn) {
    call_site_ = std::move(fn);
  }
  // The code under test's current call site ("file.c:N fn"), or "".
  std::string CallSite() const { return call_site_ ? call_site_() : ""; }
  // page_owner for real kernel code: where the code under test last took
  // page p (dump_page prints it), or "".
  void SetPageOwnerFn(std::function<std::string(const page*)> fn) {
    page_owner_ = std::move(fn);
  }
  std::string PageOwner(const page* p) const {
    return page_owner_ ? page_owner_(p) : "";
  }
  // A scheduling point; cheap no-op outside tasks.
  void Point(const char* op, uint64_t arg = 0) { exec_->Point(op, arg); }
  // might_sleep(): on a debug kernel, "BUG: sleeping function called from
  // invalid context" (a warning) when the current task is atomic
  // (preemption or irqs off, interrupt context), every time `fn` runs
  // there, whether or not it would sleep this time.
  void MightSleep(const char* fn) {
    if (!config_.debug) return;
    Task* t = exec_->Running();
    if (t != nullptr && t->atomic()) MightSleepAtomic(t, fn);
  }
  // schedule()'s check: "BUG: scheduling while atomic" (fatal here: the
  // model cannot switch away from an atomic task) when the current task
  // really goes to sleep in atomic context.
  void ScheduleCheck(const char* fn) {
    Task* t = exec_->Running();
    if (t != nullptr && t->atomic()) SchedulingWhileAtomic(t, fn);
  }
  // Sleeps on wq until cond() (the caller made the scheduling point and the
  // might-sleep check); `fn`/`arg` name the wait in hung-task reports.
  // Sleeping in atomic context is ScheduleCheck's report; `spin` waits
  // (spin_lock's busy-wait) are exempt.
  void Sleep(wait_queue_head_t& wq, const std::function<bool()>& cond,
             const char* fn, uint64_t arg, bool spin = false);
  void Wake(wait_queue_head_t& wq) {
    if (kcsan_) kcsan_->Release(&wq);  // before what the woken do next
    exec_->WakeUp(wq);
  }
  // update(arg) and the wake-up as one step for wq's waiters (complete():
  // done++ under the wait queue's lock).
  void WakeAfter(wait_queue_head_t& wq, void (*update)(void*), void* arg) {
    if (kcsan_) kcsan_->Release(&wq);
    exec_->WakeUpAfter(wq, update, arg);
  }
  // NULL / poison / freed-object checks on a pointer passed to `fn`.
  // A kernel-half address (ffff8800...: a freelist pointer read from a
  // reused object) is an unhandled paging request; any other address
  // outside the canonical user half (bytes of another kind read as a
  // pointer) is a general protection fault.
  void CheckPtr(const void* p, const char* fn) {
    const uint64_t a = reinterpret_cast<uintptr_t>(p);
    if (a - 4096 < (uint64_t{1} << 47) - 4096)
      return;  // the hot path: inline, no strings
    BadPointer(a, fn);
  }
  // CheckPtr of base + offset: a field read through a NULL pointer faults
  // at the field's offset ("NULL pointer dereference at 0000000000000028").
  void CheckField(const void* base, size_t offset, const char* fn);

  // Objects a scenario owns for the run's lifetime (destroyed with Kernel).
  template <typename T, typename... Args>
  T* New(Args&&... args) {
    auto owned = std::make_shared<T>(std::forward<Args>(args)...);
    T* raw = owned.get();
    std::lock_guard<std::mutex> l(arena_mu_);
    arena_.push_back(std::move(owned));
    return raw;
  }
  // Runs at quiescence, before the generic checks (the scenario's oracle,
  // and its release of setup references).
  void AtQuiescence(std::function<void()> fn) {
    at_quiescence_.push_back(std::move(fn));
  }
  // Records "INFO: task ... blocked for more than 120 seconds." for the
  // tasks that can never run again (executors call it on a hang).
  void ReportHang(const std::vector<const Task*>& stuck);
  // Runs the hooks, then every facility's quiescence check (quiescence.h),
  // in their order. Records the first failure.
  void CheckQuiescence();
  // A hash of the state a run left: every page (flags, count, mapping,
  // index, contents), every buffer_head (state, count, contents) by block,
  // the live slab objects by size and the reports' titles. Names that
  // follow creation order (pfns) are included; addresses are not. For
  // checking that partial-order reduction reaches every state.
  uint64_t StateFingerprint() const;

  // --- what the scheduler asks of the run (RunHooks) ----------------------
  int Cpus() const override { return config_.ncpus; }
  long MaxSteps() const override { return config_.max_steps; }
  bool Fatal() const override { return fatal(); }
  void StepLimitExceeded() override;
  void Hang(const std::vector<const Task*>& stuck) override {
    ReportHang(stuck);
  }
  void EnterThread() override { SetCurrent(this); }
  uint64_t ObjectIdsIssued() const override { return next_object_.load(); }
  uint64_t WideEffects() const override { return wide_effects_.load(); }

 private:
  static constinit thread_local Kernel* current_;
  friend struct KernelInternal;  // kernel_internal.h: the layer's own files
  Executor& exec() { return *exec_; }

  // --- registries: the kernel layer's own (kernel_internal.h) ----------
  RunMutex& tree_lock() { return tree_lock_; }  // guards registries
  Heap& heap() { return heap_; }
  // The wait queue of one object: a page's lock, a buffer's lock, a work
  // item's completion. The kernel hashes pages and buffers into shared
  // tables, but its wake function matches the waiter's key (the flags word
  // and bit: wake_bit_function), so only that object's waiters wake: one
  // queue per object is that behaviour, without the table.
  wait_queue_head_t& Waitqueue(WaitOn kind, uint64_t id);
  page* AllocPage();
  const std::vector<std::unique_ptr<page>>& pages() const { return pages_; }
  std::vector<address_space*>& mappings() { return mappings_; }
  std::map<std::pair<const block_device*, uint64_t>, buffer_head*>&
  buffer_cache() {
    return bh_cache_;
  }
  buffer_head* AllocBufferHead(size_t size);
  bio* AllocBio();
  void FreeBio(bio* b);
  std::map<const work_struct*, WorkState>& works() { return works_; }
  int NextWorkerId() { return next_worker_.fetch_add(1); }
  // Deterministic ids for objects the traces name (mutexes).
  uint64_t NextObjectId() { return next_object_.fetch_add(1) + 1; }
  // Effects that reach beyond the fields a scheduling point's operation
  // names: a report or warning (it prints whole objects), a page going back
  // to the allocator (free_pages_check reads every flag). The partial-order
  // reduction treats a step that had one as touching everything.
  // Only the explore executor reads the count (around each step, one task
  // running at a time), so a plain increment of the atomic suffices: under
  // the threads executor, which never reads it, increments may merge.
  void NoteWideEffect() {
    wide_effects_.store(wide_effects_.load(std::memory_order_relaxed) + 1,
                        std::memory_order_relaxed);
  }

  // The reports of MightSleep, ScheduleCheck and CheckPtr (out of line: the
  // checks are on every API call, the reports rare).
  void MightSleepAtomic(Task* t, const char* fn);
  [[noreturn]] void SchedulingWhileAtomic(Task* t, const char* fn);
  [[noreturn]] void BadPointer(uint64_t a, const char* fn);
  // x86's NULL-page oops at `a` in `fn`, with the IP line `ip`.
  [[noreturn]] void NullDereference(uint64_t a, const std::string& fn,
                                    const std::string& ip);
  // A host CPU fault landed in the current task (task_fault.h): the oops.
  [[noreturn]] void HostFault(const TaskFault& f);
  static void ReportHostFault(const TaskFault& f);
  std::string TaskName();
  long Step();
  std::string WithCallSite(std::string body);
  Report Make(ReportKind kind, Check check, std::string title, std::string body,
              bool warning);
  void Add(Report r, bool fatal);

  KernelConfig config_;
  Executor* exec_;
  bool super_block_gone_ = false;
  bool make_it_fail_ = false;
  bool concurrent_;  // exec_->Concurrent(): tasks are real threads
  static constexpr size_t kMaxReports = 32;
  mutable std::mutex report_mu_;
  std::vector<Report> reports_;
  std::vector<Report> lints_;
  std::set<std::string> might_sleep_seen_;  // one warning per function
  bool lockdep_on_ = true;  // until its first report (debug_locks_off)
  bool fatal_ = false;
  RunMutex tree_lock_;
  Heap heap_;
  RunMutex waitq_mu_;  // guards waitq_ (its elements never move)
  std::map<std::pair<WaitOn, uint64_t>, wait_queue_head_t> waitq_;
  std::vector<std::unique_ptr<page>> pages_;
  std::vector<address_space*> mappings_;
  std::map<std::pair<const block_device*, uint64_t>, buffer_head*> bh_cache_;
  std::vector<std::vector<buffer_head*>> bh_lrus_;  // per CPU, MRU first
  std::vector<std::unique_ptr<buffer_head>> bhs_;
  std::vector<std::unique_ptr<bio>> bios_;
  std::map<const work_struct*, WorkState> works_;
  std::atomic<int> next_worker_{0};
  std::atomic<uint64_t> next_object_{0};
  std::atomic<uint64_t> wide_effects_{0};
  std::mutex arena_mu_;
  std::vector<std::shared_ptr<void>> arena_;
  std::vector<std::function<void()>> at_quiescence_;
  std::function<std::string()> call_site_;
  std::function<std::string(const page*)> page_owner_;
  std::unique_ptr<Kcsan> kcsan_;

  // KcsanHost: what the data-race detector asks of this kernel.
  Task* CurrentTask() override { return current_task(); }
  void Watchpoint(uintptr_t addr) override;
  void ReportRace(const std::string& title, const std::string& text) override;
};

// Makes `k` the current kernel of this thread for the scope's lifetime.
class KernelScope {
 public:
  explicit KernelScope(Kernel* k) : saved_(Kernel::CurrentOrNull()) {
    Kernel::SetCurrent(k);
  }
  ~KernelScope() { Kernel::SetCurrent(saved_); }

 private:
  Kernel* saved_;
};

// BUG_ON / WARN_ON for model, variant and scenario code: a failed condition
// is reported as the kernel does ("kernel BUG at file:line!").
void model_bug_at(const char* file, int line, const char* cond);
#define BUG_ON(cond)                                                \
  do {                                                              \
    if (cond) ::squashlab::model_bug_at(__FILE__, __LINE__, #cond); \
  } while (0)
#define BUG() ::squashlab::model_bug_at(__FILE__, __LINE__, "BUG()")

// An explicit scheduling point for plain-memory code the API cannot see.
inline void model_point(const char* what) { Kernel::Current().Point(what, 0); }
// Charges simulate-mode cost from variant code (decompression, memcpy).
void model_charge(CostKind kind, uint64_t units, const char* codec = nullptr);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_KERNEL_KERNEL_H_
