// SPDX-License-Identifier: GPL-2.0-only
// This file implements Fiber: a stackful coroutine on Boost.Context's
// fcontext, the jump under its fiber class (measured 5.7 ns per switch
// here, against ~1 us for swapcontext), with pooled stacks and the
// annotations AddressSanitizer and ThreadSanitizer need to follow stack
// switches. The fcontext layer rather than boost::context::fiber: a fiber
// here is resumed and suspended in strict alternation by one scheduler,
// so the class's move-only handles and record bookkeeping are cost
// without use on the explore executor's hottest path.
#ifndef SQUASHLAB_MODEL_SCHED_FIBER_H_
#define SQUASHLAB_MODEL_SCHED_FIBER_H_

#include <boost/context/detail/fcontext.hpp>
#include <cstddef>
#include <cstdlib>
#include <functional>
#include <vector>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SQL_FIBER_SANITIZED 1
#endif
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SQL_FIBER_SANITIZED 1
#endif
#endif

namespace squashlab {

class Fiber;

namespace fiber_internal {
namespace ctx = boost::context::detail;
// What a jump hands over: where the context that jumped (a fiber, or the
// scheduler) is to be saved, and the fiber jumped to (Entry needs it).
struct Handover {
  ctx::fcontext_t* save;
  Fiber* to;
};
// Back on a stack after a jump: save the context that jumped here.
inline void Land(ctx::transfer_t from) {
  *static_cast<Handover*>(from.data)->save = from.fctx;
}
#if defined(__x86_64__) && defined(__ELF__)
// fiber.cc's jump (Boost's, trimmed).
extern "C" ctx::transfer_t squashlab_jump_fcontext(ctx::fcontext_t to,
                                                   void* data);
inline ctx::transfer_t Jump(ctx::fcontext_t to, void* data) {
  return squashlab_jump_fcontext(to, data);
}
#else
inline ctx::transfer_t Jump(ctx::fcontext_t to, void* data) {
  return ctx::jump_fcontext(to, data);
}
#endif
}  // namespace fiber_internal

// Stacks reused across fibers and runs (first touch of fresh memory costs
// ~15 us per 4 KiB page here), and the context of the scheduler the pool's
// fibers return to.
class StackPool {
 public:
  explicit StackPool(size_t stack_size);
  ~StackPool();
  StackPool(const StackPool&) = delete;
  StackPool& operator=(const StackPool&) = delete;
  void* Take();
  void Give(void* base);
  size_t stack_size() const { return stack_size_; }
  // The scheduler (Resume's caller), while one of the pool's fibers runs.
  boost::context::detail::fcontext_t* home() { return &home_; }

 private:
  size_t stack_size_;
  std::vector<void*> free_;
  std::vector<void*> all_;
  boost::context::detail::fcontext_t home_ = nullptr;
};

// One coroutine. Resume() runs it until it (or a fiber it switched to)
// calls Suspend() or returns. Thread-compatible: the fibers of one pool
// are driven by one thread at a time.
class Fiber {
 public:
  Fiber(StackPool* pool, std::function<void()> body);
  ~Fiber();
  Fiber(const Fiber&) = delete;
  Fiber& operator=(const Fiber&) = delete;

  // From the scheduler: runs the fiber until a fiber of the pool suspends
  // or finishes (this one, or one it switched to: the caller knows which).
  void Resume();
  // From inside the fiber: returns control to Resume()'s caller.
  void Suspend();
  // From inside the fiber: runs `next` (of the same pool, not finished)
  // in its place, without going through the scheduler; returns when this
  // fiber is resumed or switched to again. Not in sanitizer builds, which
  // annotate each switch to and from the scheduler (fiber.cc).
  static constexpr bool kCanSwitchDirectly =
#ifdef SQL_FIBER_SANITIZED
      false;
#else
      true;
#endif
  // Inline: the explore executor's task-to-task switch makes the jump
  // from its own frame.
  void SwitchTo(Fiber& next) {
    if (!kCanSwitchDirectly) std::abort();  // the sanitizers would not know
    fiber_internal::Handover h{&self_, &next};
    fiber_internal::Land(fiber_internal::Jump(next.self_, &h));
  }
  bool finished() const { return finished_; }
  // The stack the body runs on (lowest byte, one past the highest); a
  // guard page lies just below.
  const void* stack_lo() const { return stack_base_; }
  const void* stack_hi() const {
    return static_cast<const char*>(stack_base_) + pool_->stack_size();
  }

 private:
  static void Entry(boost::context::detail::transfer_t from);
  void SwitchIn();
  void SwitchOut(bool dying);

  StackPool* pool_;
  std::function<void()> body_;
  // The suspended fiber, while it is not running (the scheduler's is the
  // pool's home()).
  boost::context::detail::fcontext_t self_ = nullptr;
  bool finished_ = false;
  void* stack_base_ = nullptr;
  // Sanitizer bookkeeping.
  [[maybe_unused]] void* fake_stack_ = nullptr;
  [[maybe_unused]] const void* caller_bottom_ = nullptr;
  [[maybe_unused]] size_t caller_size_ = 0;
  [[maybe_unused]] void* tsan_fiber_ = nullptr;
  [[maybe_unused]] void* tsan_caller_ = nullptr;
};

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_SCHED_FIBER_H_
