// SPDX-License-Identifier: GPL-2.0-only
#include "model/sched/task_fault.h"

#include <execinfo.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <ucontext.h>

#include <atomic>
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "model/sched/task.h"

#if defined(__SANITIZE_THREAD__)
#define SQL_TASK_FAULT_OFF 1
#endif
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SQL_TASK_FAULT_OFF 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define SQL_TASK_FAULT_ASAN 1
#endif
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SQL_TASK_FAULT_ASAN 1
#endif
#endif
#ifdef SQL_TASK_FAULT_ASAN
#include <sanitizer/asan_interface.h>
#endif
#if !defined(__x86_64__) || !defined(__linux__)
#define SQL_TASK_FAULT_OFF 1  // the handler reads x86-64 registers
#endif

namespace squashlab {

bool TaskFault::general_protection() const {
  return signo == SIGSEGV && code == SI_KERNEL;
}

namespace {

std::atomic<TaskFaultReporter> g_reporter{nullptr};

#ifndef SQL_TASK_FAULT_OFF

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE};
// Below a stack: how far under its lowest byte the stack pointer of an
// overflowing frame can be (a frame that allocates a large local array
// moves it by its size at once).
constexpr uintptr_t kBelowStack = 64 * 1024;
constexpr uintptr_t kGuardSpan = 64 * 1024;  // a guard page, at least
constexpr size_t kAltStackSize = 64 * 1024;

struct sigaction g_previous[sizeof(kSignals) / sizeof(kSignals[0])];

// One task body's landing, on that body's stack, linked into its thread's
// list while the body runs (fibers of one thread each have one).
struct Landing {
  sigjmp_buf env;
  uintptr_t lo = 0;
  uintptr_t hi = 0;
  TaskFault fault;
  bool armed = true;  // a second fault (in the reporter) is not handled
  Landing* prev = nullptr;
  Landing* next = nullptr;
};

constinit thread_local Landing* tls_landings = nullptr;

// The calling thread's alternate signal stack, made on the first landing
// of the thread, unless the thread already has one (a sanitizer's).
class AltStack {
 public:
  AltStack() {
    stack_t old{};
    if (sigaltstack(nullptr, &old) != 0) return;
    if ((old.ss_flags & SS_DISABLE) == 0) return;  // someone else's: keep it
    void* m = mmap(nullptr, kAltStackSize, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return;
    stack_t s{};
    s.ss_sp = m;
    s.ss_size = kAltStackSize;
    if (sigaltstack(&s, nullptr) != 0) {
      munmap(m, kAltStackSize);
      return;
    }
    mem_ = m;
  }
  ~AltStack() {
    if (mem_ == nullptr) return;
    stack_t off{};
    off.ss_flags = SS_DISABLE;
    sigaltstack(&off, nullptr);
    munmap(mem_, kAltStackSize);
  }
  AltStack(const AltStack&) = delete;
  AltStack& operator=(const AltStack&) = delete;

 private:
  void* mem_ = nullptr;
};

// Restores the action that was there before, so that returning from the
// handler re-executes the faulting instruction into it (the default: a
// core dump, or a sanitizer's report).
void NotOurs(int signo) {
  for (size_t i = 0; i < sizeof(kSignals) / sizeof(kSignals[0]); ++i) {
    if (kSignals[i] == signo) sigaction(signo, &g_previous[i], nullptr);
  }
}

// A word of a task's stack, wherever a sanitizer's redzones are.
[[gnu::no_sanitize_address]] uintptr_t StackWord(uintptr_t sp) {
  return *reinterpret_cast<const uintptr_t*>(sp);
}

// The task whose fault the handler is unwinding (backtrace(3) reads the
// faulting stack; should that fault too, the landing goes without it).
thread_local Landing* tls_tracing = nullptr;

void OnFault(int signo, siginfo_t* info, void* context) {
  if (Landing* t = tls_tracing) {
    tls_tracing = nullptr;
    t->fault.trace_depth = 0;
    t->armed = false;
    siglongjmp(t->env, 1);
  }
  const auto* uc = static_cast<const ucontext_t*>(context);
  const uintptr_t sp = static_cast<uintptr_t>(uc->uc_mcontext.gregs[REG_RSP]);
  const uintptr_t pc = static_cast<uintptr_t>(uc->uc_mcontext.gregs[REG_RIP]);
  const uintptr_t addr = reinterpret_cast<uintptr_t>(info->si_addr);
  // The task whose stack holds the stack pointer; else (an overflow that
  // moved it below its stack) the one just above it.
  Landing* task = nullptr;
  for (Landing* l = tls_landings; l != nullptr; l = l->next) {
    if (sp >= l->lo && sp < l->hi) {
      task = l;
      break;
    }
    if (sp < l->lo && sp + kBelowStack >= l->lo &&
        (task == nullptr || l->lo < task->lo))
      task = l;
  }
  if (task != nullptr && task->armed) {
    task->fault.signo = signo;
    task->fault.code = info->si_code;
    task->fault.addr = addr;
    task->fault.pc = pc;
    task->fault.sp = sp;
    task->fault.stack_guard =
        signo == SIGSEGV && addr < task->lo && addr + kGuardSpan >= task->lo;
    // A call to a bad address faults on the fetch, with the return address
    // just pushed (a jump leaves whatever the top of the stack holds).
    // (SIGILL and SIGFPE report the instruction's address too: no fetch.)
    task->fault.return_address =
        addr == pc && (signo == SIGSEGV || signo == SIGBUS) && sp >= task->lo &&
                sp + sizeof(uintptr_t) <= task->hi
            ? StackWord(sp)
            : 0;
    task->fault.operand_known = false;
#if defined(__x86_64__)
    if (addr != pc && (signo == SIGSEGV || signo == SIGBUS)) {
      const greg_t* g = uc->uc_mcontext.gregs;
      const uint64_t regs[16] = {
          static_cast<uint64_t>(g[REG_RAX]), static_cast<uint64_t>(g[REG_RCX]),
          static_cast<uint64_t>(g[REG_RDX]), static_cast<uint64_t>(g[REG_RBX]),
          static_cast<uint64_t>(g[REG_RSP]), static_cast<uint64_t>(g[REG_RBP]),
          static_cast<uint64_t>(g[REG_RSI]), static_cast<uint64_t>(g[REG_RDI]),
          static_cast<uint64_t>(g[REG_R8]),  static_cast<uint64_t>(g[REG_R9]),
          static_cast<uint64_t>(g[REG_R10]), static_cast<uint64_t>(g[REG_R11]),
          static_cast<uint64_t>(g[REG_R12]), static_cast<uint64_t>(g[REG_R13]),
          static_cast<uint64_t>(g[REG_R14]), static_cast<uint64_t>(g[REG_R15])};
      task->fault.operand_known = ByteLoadOperand(
          reinterpret_cast<const uint8_t*>(pc), regs, &task->fault.operand);
    }
#endif
    // The stack, unless the fault is the fetch of a bad call target (no
    // unwind information there; the return address names the caller).
    task->fault.trace_depth = 0;
    if (addr != pc) {
      tls_tracing = task;
      task->fault.trace_depth = backtrace(
          reinterpret_cast<void**>(task->fault.trace), TaskFault::kTraceMax);
      tls_tracing = nullptr;
    }
    task->armed = false;
    siglongjmp(task->env, 1);
  }
  NotOurs(signo);
}

void InstallOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    // backtrace(3) loads its unwinder on first use: not in the handler.
    void* warm[1];
    (void)backtrace(warm, 1);
    struct sigaction sa {};
    sa.sa_sigaction = &OnFault;
    sigemptyset(&sa.sa_mask);
    // SA_NODEFER: the jump out leaves the signal unblocked (no mask to
    // restore, so the landing's sigsetjmp need not save one: no system
    // call per task body).
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    for (size_t i = 0; i < sizeof(kSignals) / sizeof(kSignals[0]); ++i)
      sigaction(kSignals[i], &sa, &g_previous[i]);
  });
}

void ReportUnregistered(const TaskFault& f) {
  std::fprintf(stderr,
               "squashlab: host fault in a task with no reporter: signal %d "
               "at address %#lx, pc %#lx\n",
               f.signo, static_cast<unsigned long>(f.addr),
               static_cast<unsigned long>(f.pc));
  std::abort();
}

#endif  // SQL_TASK_FAULT_OFF

void RunPlain(const std::function<void()>& body) {
  try {
    body();
  } catch (const TaskOops&) {
  }
}

}  // namespace

void SetTaskFaultReporter(TaskFaultReporter reporter) {
  g_reporter.store(reporter, std::memory_order_release);
}

bool TaskFaultLandingEnabled() {
#ifdef SQL_TASK_FAULT_OFF
  return false;
#else
  return true;
#endif
}

void RunTaskBody(const std::function<void()>& body, const void* stack_lo,
                 const void* stack_hi) {
#ifdef SQL_TASK_FAULT_OFF
  (void)stack_lo;
  (void)stack_hi;
  RunPlain(body);
#else
  InstallOnce();
  thread_local AltStack alt_stack;
  Landing landing;
  landing.lo = reinterpret_cast<uintptr_t>(stack_lo);
  landing.hi = reinterpret_cast<uintptr_t>(stack_hi);
  landing.next = tls_landings;
  if (landing.next != nullptr) landing.next->prev = &landing;
  tls_landings = &landing;
  struct Unlink {
    Landing* l;
    ~Unlink() {
      if (l->prev != nullptr)
        l->prev->next = l->next;
      else
        tls_landings = l->next;
      if (l->next != nullptr) l->next->prev = l->prev;
    }
  } unlink{&landing};
  if (sigsetjmp(landing.env, 0) == 0) {
    RunPlain(body);
    return;
  }
  // Back from the handler: the body's frames below are abandoned.
#ifdef SQL_TASK_FAULT_ASAN
  // Their redzones too: the reporter's frames will reuse that stack.
  const auto frame = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  if (frame > landing.lo && frame <= landing.hi)
    __asan_unpoison_memory_region(reinterpret_cast<void*>(landing.lo),
                                  frame - landing.lo);
#endif
  TaskFaultReporter reporter = g_reporter.load(std::memory_order_acquire);
  const TaskFault fault = landing.fault;
  try {
    if (reporter == nullptr) ReportUnregistered(fault);
    reporter(fault);
  } catch (const TaskOops&) {
  }
#endif
}

void RunTaskBodyOnThreadStack(const std::function<void()>& body) {
#ifdef SQL_TASK_FAULT_OFF
  RunPlain(body);
#else
  // The thread's stack, asked once per thread (for the main thread glibc
  // reads /proc/self/maps to answer).
  struct Bounds {
    void* lo = nullptr;
    size_t size = 0;
    Bounds() {
      pthread_attr_t attr;
      if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
      if (pthread_attr_getstack(&attr, &lo, &size) != 0) size = 0;
      pthread_attr_destroy(&attr);
    }
  };
  thread_local const Bounds bounds;
  if (bounds.size == 0) {
    RunPlain(body);
    return;
  }
  RunTaskBody(body, bounds.lo, static_cast<char*>(bounds.lo) + bounds.size);
#endif
}

}  // namespace squashlab
