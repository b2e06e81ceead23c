// SPDX-License-Identifier: GPL-2.0-only
// This file implements Kernel: reports, the pointer and context checks every
// API call makes, the object registries, and the quiescence invariants.
#include "model/kernel/kernel.h"

#include <array>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "model/kernel/bio.h"
#include "model/kernel/blk_plug.h"
#include "model/kernel/buffer_head.h"
#include "model/kernel/check_call.h"
#include "model/kernel/checkers/call_trace.h"
#include "model/kernel/checkers/kasan_shadow.h"
#include "model/kernel/checkers/symbolize.h"
#include "model/kernel/filemap.h"
#include "model/kernel/kernel_internal.h"
#include "model/kernel/kmap_local.h"
#include "model/kernel/page.h"
#include "model/kernel/quiescence.h"
#include "model/kernel/workqueue.h"

namespace squashlab {
constinit thread_local Kernel* Kernel::current_ = nullptr;

std::string Hex16(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

Kernel::Kernel(KernelConfig config, Executor* executor)
    : config_(config),
      exec_(executor),
      concurrent_(executor->Concurrent()),
      tree_lock_(executor->Concurrent()),
      heap_(config.debug, config.ncpus),
      waitq_mu_(executor->Concurrent()) {
  if (!config_.lockdep)  // a run of its own: a graph of its own
    config_.lockdep = std::make_shared<LockdepGraph>();
  if (config_.kcsan)
    kcsan_ = std::make_unique<Kcsan>(static_cast<KcsanHost*>(this),
                                     config_.kcsan_watch);
  exec_->Attach(this);
  SetTaskFaultReporter(&Kernel::ReportHostFault);
}

Kernel::~Kernel() {
  if (exec_->hooks() == this) exec_->Attach(nullptr);
  for (auto& b : bhs_) delete[] b->b_data;
}

std::string Kernel::TaskName() {
  Task* t = exec_->Current();
  return t ? t->Comm() : "";
}

Report Kernel::Make(ReportKind kind, Check check, std::string title,
                    std::string body, bool warning) {
  const Contract& c = ContractOf(check);
  Report r;
  r.kind = check == Check::kUnattributed ? kind : c.kind;
  r.title = std::move(title);
  r.body = WithCallSite(std::move(body));
  if (exec_->Running() != nullptr) {  // dump_stack: the kernel frames
    const std::string trace = CurrentCallTrace();
    if (!trace.empty()) r.body += "\n" + trace;
  }
  r.task = TaskName();
  r.step = exec_->Current() ? exec_->Steps() : -1;
  r.warning = warning;
  if (check != Check::kUnattributed) {
    r.contract = c.name;
    r.source = Citation(c);
  }
  r.lint = c.cls == CheckClass::kLint && check != Check::kUnattributed;
  return r;
}

std::string Kernel::WithCallSite(std::string body) {
  if (!call_site_) return body;
  std::string site = call_site_();
  if (site.empty()) return body;
  return body + "\ncalled from " + site;
}

void Kernel::Add(Report r, bool fatal) {
  std::lock_guard<std::mutex> l(report_mu_);
  NoteWideEffect();
  if (r.lint) {
    if (lints_.size() < kMaxReports) lints_.push_back(r);
    if (!config_.lint || fatal_ || reports_.size() >= kMaxReports) return;
    r.title = "lint: " + r.title;
    r.warning = true;
    reports_.push_back(std::move(r));
    return;
  }
  if (fatal_) return;
  if (fatal) {
    fatal_ = true;
  } else if (reports_.size() >= kMaxReports) {
    return;
  }
  reports_.push_back(std::move(r));
}

void Kernel::Record(Check check, std::string title, std::string body) {
  Add(Make(ReportKind::kNone, check, std::move(title), std::move(body), false),
      true);
}

void Kernel::Watchpoint(uintptr_t addr) { Point("kcsan_watchpoint", addr); }

void Kernel::ReportRace(const std::string& title, const std::string& text) {
  Warn(Check::kKcsanDataRace, title, text);
}

void Kernel::Warn(Check check, std::string title, std::string body) {
  Add(Make(ReportKind::kNone, check, std::move(title), std::move(body), true),
      false);
}

void Kernel::Lint(Check check, std::string title, std::string body) {
  Report r =
      Make(ReportKind::kNone, check, std::move(title), std::move(body), true);
  r.lint = true;
  Add(std::move(r), false);
}

void Kernel::Bug(Check check, std::string title, std::string body) {
  if (ContractOf(check).cls == CheckClass::kLint) {
    Lint(check, std::move(title), std::move(body));
    std::lock_guard<std::mutex> l(report_mu_);
    fatal_ = true;  // the model cannot go on; no kernel report
  } else {
    Record(check, std::move(title), std::move(body));
  }
  exec_->OnReport();
  throw TaskOops{};
}

void Kernel::DebugBug(Check check, std::string title, std::string body) {
  if (config_.debug) Bug(check, std::move(title), std::move(body));
  Warn(check, std::move(title),
       std::move(body) +
           "\n(production kernel: no DEBUG_VM, the kernel goes on silently)");
}

void Kernel::Record(ReportKind kind, std::string title, std::string body) {
  Add(Make(kind, Check::kUnattributed, std::move(title), std::move(body),
           false),
      true);
}

void Kernel::Warn(ReportKind kind, std::string title, std::string body) {
  Add(Make(kind, Check::kUnattributed, std::move(title), std::move(body), true),
      false);
}

void Kernel::Bug(ReportKind kind, std::string title, std::string body) {
  Record(kind, std::move(title), std::move(body));
  exec_->OnReport();
  throw TaskOops{};
}

void Kernel::DebugBug(ReportKind kind, std::string title, std::string body) {
  if (config_.debug) Bug(kind, std::move(title), std::move(body));
  Warn(kind, std::move(title),
       std::move(body) +
           "\n(production kernel: no DEBUG_VM, the kernel goes on silently)");
}

std::vector<Report> Kernel::lints() const {
  std::lock_guard<std::mutex> l(report_mu_);
  return lints_;
}

bool Kernel::reported() const {
  std::lock_guard<std::mutex> l(report_mu_);
  return !reports_.empty();
}

bool Kernel::fatal() const {
  std::lock_guard<std::mutex> l(report_mu_);
  return fatal_;
}

Report Kernel::report() const {
  std::lock_guard<std::mutex> l(report_mu_);
  return reports_.empty() ? Report{} : reports_.front();
}

std::vector<Report> Kernel::reports() const {
  std::lock_guard<std::mutex> l(report_mu_);
  return reports_;
}

// ___might_sleep (CONFIG_DEBUG_ATOMIC_SLEEP, a debug kernel): printed with
// a stack dump every time the code runs in atomic context, whether or not
// it sleeps this time; the kernel goes on. Once per function per run (the
// kernel rate-limits to one a second).
void Kernel::MightSleepAtomic(Task* t, const char* fn) {
  {
    std::lock_guard<std::mutex> l(report_mu_);
    if (!might_sleep_seen_.insert(fn).second) return;
  }
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "BUG: sleeping function called from invalid context at %s\n"
                "in_atomic(): %d, irqs_disabled(): %d, pid: %d, name: %s\n"
                "preempt_count: %x, in_interrupt(): %d",
                fn, t->preempt_count > 0 || t->in_interrupt(),
                t->irqs_disabled > 0, t->id, t->spec.name.c_str(),
                t->preempt_count, t->in_interrupt());
  Warn(Check::kSleepInvalidContext,
       "BUG: sleeping function called from invalid context in " +
           std::string(fn),
       buf);
}

// schedule_debug(): a task that really goes to sleep in atomic context.
void Kernel::SchedulingWhileAtomic(Task* t, const char* fn) {
  char buf[192];
  std::snprintf(
      buf, sizeof buf,
      "BUG: scheduling while atomic: %s/%d/0x%08x\nin %s: in_atomic(): 1, "
      "irqs_disabled(): %d, in_interrupt(): %d",
      t->spec.name.c_str(), t->id, t->preempt_count, fn, t->irqs_disabled > 0,
      t->in_interrupt());
  Bug(Check::kSchedulingWhileAtomic, "BUG: scheduling while atomic", buf);
}

void Kernel::Sleep(wait_queue_head_t& wq, const std::function<bool()>& cond,
                   const char* fn, uint64_t arg, bool spin) {
  if (cond()) {
    // On real threads a waker may still be inside its wake-up (complete()
    // holds the wait queue's lock across done++ and the wake): pass through
    // the wait list's lock before returning, as the kernel's waiter does,
    // so that the caller may free what holds wq.
    if (concurrent_) exec_->WaitEvent(wq, [] { return true; });
    if (kcsan_) kcsan_->Acquire(&wq);
    return;
  }
  Task* t = exec_->Running();
  if (t == nullptr)
    Bug(Check::kSleepOutsideTask, "BUG: sleeping outside any task", fn);
  if (!spin) ScheduleCheck(fn);
  t->blocked_in = fn;
  t->blocked_arg = arg;
  blk_flush_plug_current();  // schedule(): a sleeper's plugged bios go out
                             // first
  exec_->WaitEvent(wq, cond);
  t->blocked_in = "";
  if (kcsan_) kcsan_->Acquire(&wq);  // after its waker's wake-up
}

void Kernel::NullDereference(uint64_t a, const std::string& fn,
                             const std::string& ip) {
  Bug(Check::kNullDereference,
      "BUG: unable to handle kernel NULL pointer dereference in " + fn,
      "BUG: unable to handle kernel NULL pointer dereference at " + Hex16(a) +
          "\n" + ip + "\nOops: 0000 [#1] SMP");
}

// REQUIRES: a is NULL-ish, a kernel-half address or poison (CheckPtr).
void Kernel::BadPointer(uint64_t a, const char* fn) {
  bool kernel_half = (a >> 48) == 0xffff;
  std::string at = "IP: [<ffffffff81000000>] " + std::string(fn);
  if (a < 4096) NullDereference(a, fn, at);
  if (kernel_half) {
    Bug(Check::kPagingRequest,
        "BUG: unable to handle kernel paging request in " + std::string(fn),
        "BUG: unable to handle kernel paging request at " + Hex16(a) + "\n" +
            at +
            "\nOops: 0000 [#1] SMP\n(a slab freelist pointer read from a freed "
            "object)");
  }
  if ((a >> 16) == (kPoisonFreePtr >> 16)) {
    Bug(Check::kPoisonFreePointer,
        "general protection fault (POISON_FREE pointer) in " + std::string(fn),
        "general protection fault: 0000 [#1] SMP\n" + at + "\naddress " +
            Hex16(a) + " is POISON_FREE: a pointer read from freed memory");
  }
  if ((a >> 16) == (kPoisonInusePtr >> 16)) {
    Bug(Check::kUninitPointer, "BUG: KMSAN: uninit-value in " + std::string(fn),
        "BUG: KMSAN: uninit-value in " + std::string(fn) + "\naddress " +
            Hex16(a) +
            " is POISON_INUSE: a never-initialised field of a kmalloc'd "
            "object");
  }
  Bug(Check::kNonCanonicalPointer,
      "general protection fault in " + std::string(fn),
      "general protection fault: 0000 [#1] SMP\n" + at + "\naddress " +
          Hex16(a) +
          " is not canonical: bytes of another kind read as a pointer");
}

void Kernel::ReportHostFault(const TaskFault& f) {
  Kernel* k = CurrentOrNull();
  if (k == nullptr) {  // a task of no kernel: nothing can report it
    std::fprintf(stderr, "squashlab: host fault outside a kernel run at %#lx\n",
                 static_cast<unsigned long>(f.pc));
    std::abort();
  }
  k->HostFault(f);
}

void Kernel::HostFault(const TaskFault& f) {
  std::string fn = FunctionAt(f.pc);
  // An inline KASAN check's shadow load for an address past 2^47 (a
  // non-canonical or kernel-half pointer): the access the check stood
  // for is what faults, as with an outlined check (CheckPtr).
  uintptr_t wild = 0;
  if (f.operand_known &&
      KasanShadowLoad(f.operand, f.general_protection(), &wild))
    BadPointer(wild, fn.empty() ? "(unknown)" : fn.c_str());
  std::string ip =
      "IP: [<" + Hex16(f.pc) + ">] " + (fn.empty() ? "(null)" : fn);
  if (f.return_address != 0) {  // a call to a bad address: name the caller
    const std::string caller = FunctionAt(f.return_address);
    if (!caller.empty()) {
      if (fn.empty()) fn = caller;
      ip += "\ncalled from [<" + Hex16(f.return_address) + ">] " + caller;
    }
  }
  // A fault inside a library routine the module called (memset, memcpy):
  // the title names the module's function it was called from, the first
  // frame of the call trace, as the kernel's names its caller's frame.
  for (int i = 0; fn.empty() && i < f.trace_depth; i++)
    if (f.trace[i] != 0 && InKernelText(f.trace[i] - 1))
      fn = FunctionAt(f.trace[i] - 1);
  if (fn.empty()) fn = Hex16(f.pc);
  const std::string where = " in " + fn;
  const std::string trace = FormatCallTrace(f.trace, f.trace_depth);
  if (!trace.empty()) ip += "\n" + trace;
  if (f.stack_guard) {
    Bug(Check::kStackGuard, "BUG: stack guard page was hit" + where,
        "BUG: stack guard page was hit at " + Hex16(f.addr) +
            " (stack pointer " + Hex16(f.sp) +
            ")\nkernel stack overflow (page fault): 0000 [#1] SMP\n" + ip);
  }
  if (f.signo == SIGILL) {
    Bug(Check::kInvalidOpcode, "invalid opcode" + where,
        "invalid opcode: 0000 [#1] SMP\n" + ip);
  }
  if (f.signo == SIGFPE) {
    Bug(Check::kDivideError, "divide error" + where,
        "divide error: 0000 [#1] SMP\n" + ip);
  }
  if (f.general_protection()) {
    Bug(Check::kNonCanonicalPointer, "general protection fault" + where,
        "general protection fault: 0000 [#1] SMP\n" + ip +
            "\n(a non-canonical address: the CPU does not report it)");
  }
  std::string slot;
  if (KmapLocalSlotFault(f.addr, &slot)) {
    // A fixmap slot kunmap_local cleared (arch/x86/mm/fault.c,
    // show_fault_oops: a not-present page in kernel mode).
    Bug(Check::kKmapLocalUnmapped,
        "BUG: unable to handle page fault for address" + where,
        "BUG: unable to handle page fault for address: " + Hex16(f.addr) +
            "\n#PF: error_code - not-present page\nOops: 0000 [#1] SMP\n" + ip +
            "\n(" + slot + ")");
  }
  if (f.addr < 4096) NullDereference(f.addr, fn, ip);
  const bool exec = f.addr == f.pc;
  Bug(Check::kHostPageFault,
      "BUG: unable to handle kernel paging request" + where,
      "BUG: unable to handle kernel paging request at " + Hex16(f.addr) + "\n" +
          ip + "\nOops: " + (exec ? "0010" : "0000") + " [#1] SMP\n(" +
          (exec ? "an instruction fetch: a call or jump to the address"
                : "a load or store") +
          " the host CPU faulted on; no model check had flagged it)");
}

void CheckCall(const void* fn, const char* where) {
  Kernel& k = Kernel::Current();
  k.CheckPtr(fn, where);
  if (IsFunctionStart(reinterpret_cast<uintptr_t>(fn))) return;
  k.Bug(Check::kPagingRequest,
        "BUG: unable to handle kernel paging request in " + std::string(where),
        "BUG: unable to handle kernel paging request at " +
            Hex16(reinterpret_cast<uintptr_t>(fn)) + "\nIP: [<" +
            Hex16(reinterpret_cast<uintptr_t>(fn)) + ">] (" + where +
            " called through a pointer that names no function: its object "
            "was freed and reused)\nOops: 0010 [#1] SMP");
}

void Kernel::CheckField(const void* base, size_t offset, const char* fn) {
  CheckPtr(
      reinterpret_cast<const void*>(reinterpret_cast<uintptr_t>(base) + offset),
      fn);
}

page* Kernel::AllocPage() {
  std::lock_guard<RunMutex> l(tree_lock_);
  auto p = std::make_unique<page>();
  p->pfn = pages_.size();
  Task* t = exec_->Running();
  p->data = static_cast<char*>(heap_.Alloc(PAGE_SIZE, false, "alloc_pages",
                                           t ? t->Comm() : "setup",
                                           t ? t->cpu : 0, kPageDataCache));
  if (config_.kmsan) {
    static const auto* pattern = [] {
      auto* a = new std::array<char, PAGE_SIZE>;
      for (size_t i = 0; i < PAGE_SIZE; i++) (*a)[i] = UninitPagePattern(i);
      return a;
    }();
    std::memcpy(p->data, pattern->data(), PAGE_SIZE);
  } else {
    std::memset(p->data, POISON_INUSE, PAGE_SIZE);
  }
  p->_count.store(1);
  p->freed = false;
  pages_.push_back(std::move(p));
  return pages_.back().get();
}

buffer_head* Kernel::AllocBufferHead(size_t size) {
  auto b = std::make_unique<buffer_head>();
  b->b_size = size;
  b->b_data = new char[size];
  bhs_.push_back(std::move(b));
  return bhs_.back().get();
}

bio* Kernel::AllocBio() {
  std::lock_guard<RunMutex> l(tree_lock_);
  auto b = std::make_unique<bio>();
  b->id = bios_.size();
  bios_.push_back(std::move(b));
  return bios_.back().get();
}

void Kernel::FreeBio(bio* b) {
  std::lock_guard<RunMutex> l(tree_lock_);
  b->freed = true;
}

void Kernel::StepLimitExceeded() {
  Record(
      Check::kStepLimit, "squashlab: run exceeded its step budget",
      "more than " + std::to_string(config_.max_steps) + " steps (livelock?)");
}

void Kernel::ReportHang(const std::vector<const Task*>& stuck) {
  std::string body;
  const Task* first = nullptr;
  for (const Task* t : stuck) {
    if (t->state != TaskState::kBlocked) continue;
    if (first == nullptr) first = t;
    body += "INFO: task " + t->Comm() +
            " blocked for more than 120 seconds.\n" +
            "      Not tainted 3.13.0-squashlab\n" + t->spec.name + "  D  in " +
            t->blocked_in + "(" + std::to_string(t->blocked_arg) + ")\n";
  }
  if (first == nullptr && !stuck.empty()) {
    first = stuck.front();
    body =
        "every remaining task waits for a CPU held by a non-preemptible "
        "section\n";
  }
  if (first == nullptr) return;
  Record(
      Check::kHungTask,
      "INFO: task " + first->spec.name + " blocked for more than 120 seconds.",
      body);
}

namespace {

uint64_t Mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdULL;
}

// Eight bytes a step (a page is 512 of them), the tail byte by byte.
uint64_t MixBytes(uint64_t h, const char* p, size_t n) {
  uint64_t x = 0xcbf29ce484222325ULL ^ n;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    x = (x ^ w) * 0x100000001b3ULL;
    x ^= x >> 29;
  }
  for (; i < n; i++)
    x = (x ^ static_cast<unsigned char>(p[i])) * 0x100000001b3ULL;
  return Mix(h, x);
}

}  // namespace

wait_queue_head_t& Kernel::Waitqueue(WaitOn kind, uint64_t id) {
  std::lock_guard<RunMutex> l(waitq_mu_);
  return waitq_[{kind, id}];
}

uint64_t Kernel::StateFingerprint() const {
  uint64_t h = 1;
  for (const auto& p : pages_) {
    h = Mix(h, p->pfn);
    h = Mix(h, p->flags.load());
    h = Mix(h, static_cast<uint64_t>(p->_count.load()));
    h = Mix(h, p->mapping != nullptr ? p->index + 1 : 0);
    h = Mix(h, (p->freed ? 1 : 0) | (p->bad ? 2 : 0));
    if (p->data != nullptr) h = MixBytes(h, p->data, PAGE_SIZE);
  }
  std::map<uint64_t, uint64_t> bhs;  // by block: creation order may differ
  for (const auto& b : bhs_) {
    uint64_t x =
        Mix(Mix(b->b_state.load(), static_cast<uint64_t>(b->b_count.load())),
            b->in_io);
    if (b->b_data != nullptr) x = MixBytes(x, b->b_data, b->b_size);
    bhs[b->b_blocknr] = x;
  }
  for (const auto& [block, x] : bhs) h = Mix(Mix(h, block), x);
  std::map<size_t, long> live;
  for (const auto& [addr, obj] : heap_.Live()) live[obj.size]++;
  for (const auto& [size, n] : live)
    h = Mix(Mix(h, size), static_cast<uint64_t>(n));
  std::lock_guard<std::mutex> l(report_mu_);
  for (const Report& r : reports_)
    h = MixBytes(h, r.title.data(), r.title.size());
  return h;
}

void Kernel::CheckQuiescence() {
  for (auto& fn : at_quiescence_) {
    fn();
    if (fatal()) return;
  }
  RunQuiescenceChecks(*this);
}

void model_bug_at(const char* file, int line, const char* cond) {
  Kernel::Current().Bug(
      Check::kBugOn,
      std::string("kernel BUG at ") + file + ":" + std::to_string(line) + "!",
      std::string("kernel BUG at ") + file + ":" + std::to_string(line) +
          "!\ninvalid opcode: 0000 [#1] SMP\nBUG_ON(" + cond + ")");
}

void model_charge(CostKind kind, uint64_t units, const char* codec) {
  Kernel& k = Kernel::Current();
  KernelInternal::Exec(k).Charge(kind, units, codec);
}

}  // namespace squashlab
