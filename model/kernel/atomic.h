// SPDX-License-Identifier: GPL-2.0-only
// This file implements atomic_t and READ_ONCE / WRITE_ONCE. Each call is a
// scheduling point, since each publishes or observes shared state.
#ifndef SQUASHLAB_MODEL_KERNEL_ATOMIC_H_
#define SQUASHLAB_MODEL_KERNEL_ATOMIC_H_

#include <atomic>

#include "model/kernel/kernel.h"

namespace squashlab {

struct atomic_t {
  std::atomic<int> counter{0};
};
int atomic_read(const atomic_t* v);
void atomic_set(atomic_t* v, int i);
void atomic_inc(atomic_t* v);
void atomic_dec(atomic_t* v);
int atomic_inc_return(atomic_t* v);
int atomic_dec_return(atomic_t* v);
int atomic_dec_and_test(atomic_t* v);
void atomic_add(int i, atomic_t* v);
void atomic_sub(int i, atomic_t* v);

// Marked accesses: atomics (no data race for TSan, as KCSAN treats them),
// with a scheduling point before each. The kernel memory model orders a
// READ_ONCE'd pointer's dereference by address dependency; TSan knows no
// dependencies, so the model uses acquire/release, its closest equivalent.
template <typename T>
T READ_ONCE(T& x) {
  model_point("READ_ONCE");
  return std::atomic_ref<T>(x).load(std::memory_order_acquire);
}
template <typename T, typename U>
void WRITE_ONCE(T& x, U v) {
  model_point("WRITE_ONCE");
  std::atomic_ref<T>(x).store(static_cast<T>(v), std::memory_order_release);
}

// Full barriers: the model's accesses are sequentially consistent already.
inline void smp_mb() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void mb() { smp_mb(); }

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_KERNEL_ATOMIC_H_
