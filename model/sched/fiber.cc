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
namespace ctx = boost::context;

namespace {
constexpr size_t kGuard = 4096;

struct PoolStack {
  void* base;
  size_t size;
  ctx::stack_context allocate() {
    ctx::stack_context sc;
    sc.size = size;
    sc.sp = static_cast<char*>(base) + size;
    return sc;
  }
  void deallocate(ctx::stack_context&) {}  // the Fiber returns it to the pool
};
}  // namespace

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
  self_ =
      ctx::fiber(std::allocator_arg, PoolStack{stack_base_, pool->stack_size()},
                 [this](ctx::fiber&& c) { return Entry(std::move(c)); });
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
  self_ = std::move(self_).resume();
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
  caller_ = std::move(caller_).resume();
  SwitchIn();
}

ctx::fiber Fiber::Entry(ctx::fiber&& caller) {
  caller_ = std::move(caller);
  SwitchIn();
  try {
    body_();
  } catch (...) {
    std::terminate();  // executors catch TaskOops; anything else is a bug
  }
  finished_ = true;
  SwitchOut(true);
  return std::move(caller_);
}

}  // namespace squashlab
