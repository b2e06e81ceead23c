// SPDX-License-Identifier: GPL-2.0-only
// This file implements fibers on Boost.Context with sanitizer annotations.
#include "model/sched/fiber.h"

#include <sys/mman.h>

#include <cstdlib>
#include <exception>

#if defined(__SANITIZE_ADDRESS__)
#define SQL_FIBER_ASAN 1
#endif
#if defined(__SANITIZE_THREAD__)
#define SQL_FIBER_TSAN 1
#endif
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SQL_FIBER_ASAN 1
#endif
#if __has_feature(thread_sanitizer)
#define SQL_FIBER_TSAN 1
#endif
#endif

#ifdef SQL_FIBER_ASAN
#include <sanitizer/asan_interface.h>
#endif
#ifdef SQL_FIBER_TSAN
#include <sanitizer/tsan_interface.h>
#endif

namespace squashlab {
namespace ctx = boost::context::detail;

using fiber_internal::Handover;
using fiber_internal::Land;

namespace {
constexpr size_t kGuard = 4096;
}  // namespace

#if defined(__x86_64__) && defined(__ELF__)
// Boost.Context's jump_fcontext for x86-64 System V, with two differences
// on the explore executor's hottest path (every task switch is one or two
// of these): it does not save and restore MXCSR and the x87 control word
// (nothing here changes the floating-point environment, and every fiber
// runs on the thread that made it), and it leaves through `ret` instead of
// `jmp *%r8`. Every jump starts with a `call`, so the return pops what
// that call pushed on the return-stack predictor: the returns that follow
// on the new stack (through SwitchTo, Suspend, Resume, Point) are then
// predicted from the same call sites, rather than all off by one entry.
// The frame is Boost's (make_fcontext builds the first one): r12-r15, rbx,
// rbp at 0x8-0x30 (0x0 holds Boost's MXCSR and control word, unused
// here) and the return address at 0x38. Global (SwitchTo, inline in
// fiber.h, calls it from the explore executor) but hidden: called
// directly, never through the PLT.
asm(R"(
  .text
  .p2align 4
  .globl squashlab_jump_fcontext
  .hidden squashlab_jump_fcontext
  .type squashlab_jump_fcontext,@function
squashlab_jump_fcontext:
  leaq -0x38(%rsp), %rsp
  movq %r12, 0x8(%rsp)
  movq %r13, 0x10(%rsp)
  movq %r14, 0x18(%rsp)
  movq %r15, 0x20(%rsp)
  movq %rbx, 0x28(%rsp)
  movq %rbp, 0x30(%rsp)
  movq %rsp, %rax
  movq %rdi, %rsp
  movq 0x8(%rsp), %r12
  movq 0x10(%rsp), %r13
  movq 0x18(%rsp), %r14
  movq 0x20(%rsp), %r15
  movq 0x28(%rsp), %rbx
  movq 0x30(%rsp), %rbp
  leaq 0x38(%rsp), %rsp
  movq %rsi, %rdx
  movq %rax, %rdi
  ret
  .size squashlab_jump_fcontext,.-squashlab_jump_fcontext
)");
#endif
#define SQL_JUMP fiber_internal::Jump

StackPool::StackPool(size_t stack_size) : stack_size_(stack_size) {}

StackPool::~StackPool() {
  for (void* b : all_)
    munmap(static_cast<char*>(b) - kGuard, stack_size_ + kGuard);
}

void* StackPool::Take() {
  if (!free_.empty()) {
    void* b = free_.back();
    free_.pop_back();
    return b;
  }
  void* m = mmap(nullptr, stack_size_ + kGuard, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED) std::abort();
  mprotect(m, kGuard, PROT_NONE);  // overflow faults instead of corrupting
  void* base = static_cast<char*>(m) + kGuard;
  all_.push_back(base);
  return base;
}

void StackPool::Give(void* base) { free_.push_back(base); }

Fiber::Fiber(StackPool* pool, std::function<void()> body)
    : pool_(pool), body_(std::move(body)), stack_base_(pool->Take()) {
  // The stack grows down from its top (page-aligned, so 16-byte aligned).
  self_ =
      ctx::make_fcontext(static_cast<char*>(stack_base_) + pool->stack_size(),
                         pool->stack_size(), &Fiber::Entry);
#ifdef SQL_FIBER_TSAN
  tsan_fiber_ = __tsan_create_fiber(0);
#endif
}

Fiber::~Fiber() {
  if (!finished_) std::abort();  // executors always run fibers to the end
#ifdef SQL_FIBER_TSAN
  __tsan_destroy_fiber(tsan_fiber_);
#endif
  pool_->Give(stack_base_);
}

void Fiber::Resume() {
  void* fake = nullptr;
#ifdef SQL_FIBER_ASAN
  __sanitizer_start_switch_fiber(&fake, stack_base_, pool_->stack_size());
#endif
#ifdef SQL_FIBER_TSAN
  // Synchronising switch: in explore and simulate one task runs at a time,
  // so the emulator's own unlocked bookkeeping is ordered by the switches.
  // Data races are the threads executor's job.
  tsan_caller_ = __tsan_get_current_fiber();
  __tsan_switch_to_fiber(tsan_fiber_, 0);
#endif
  // The first jump enters Entry; later ones return from the fiber's jump
  // in Suspend or SwitchTo. Whichever fiber of the pool jumps home lands
  // here, and is saved where it says.
  Handover h{pool_->home(), this};
  Land(SQL_JUMP(self_, &h));
#ifdef SQL_FIBER_TSAN
  if (finished_) __tsan_switch_to_fiber(tsan_caller_, 0);
#endif
#ifdef SQL_FIBER_ASAN
  __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#endif
  (void)fake;
}

void Fiber::SwitchIn() {
#ifdef SQL_FIBER_ASAN
  __sanitizer_finish_switch_fiber(fake_stack_, &caller_bottom_, &caller_size_);
#endif
}

void Fiber::SwitchOut(bool dying) {
#ifdef SQL_FIBER_ASAN
  __sanitizer_start_switch_fiber(dying ? nullptr : &fake_stack_, caller_bottom_,
                                 caller_size_);
#endif
  (void)dying;
}

void Fiber::Suspend() {
  SwitchOut(false);
#ifdef SQL_FIBER_TSAN
  // Here, not in a helper: TSan keeps one shadow call stack per fiber, and
  // a helper's instrumented return would run on the scheduler's. A dying
  // fiber instead stays current until Resume() is back on the scheduler.
  __tsan_switch_to_fiber(tsan_caller_, 0);
#endif
  Handover h{&self_, nullptr};
  Land(SQL_JUMP(*pool_->home(), &h));
  SwitchIn();
}

void Fiber::Entry(ctx::transfer_t from) {
  Fiber* f = static_cast<Handover*>(from.data)->to;
  Land(from);
  f->SwitchIn();
  try {
    f->body_();
  } catch (...) {
    std::terminate();  // executors catch TaskOops; anything else is a bug
  }
  f->finished_ = true;
  f->SwitchOut(true);
  Handover h{&f->self_, nullptr};
  SQL_JUMP(*f->pool_->home(), &h);  // never resumed again
  std::abort();
}

}  // namespace squashlab
