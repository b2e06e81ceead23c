// SPDX-License-Identifier: GPL-2.0-only
// This file implements the kernel's sleeping mutex (mutex_lock / unlock /
// trylock) and spinlock_t (spin_lock / spin_unlock), with the debug checks
// of CONFIG_DEBUG_MUTEXES: sleeping in atomic context, unlocking a mutex
// the task does not own.
#ifndef SQUASHLAB_MODEL_KERNEL_MUTEX_H_
#define SQUASHLAB_MODEL_KERNEL_MUTEX_H_

#include <atomic>

#include "model/kernel/wait_queue.h"

namespace squashlab {

struct mutex {
  std::atomic<int> owner{-1};  // task id, -1 when free
  wait_queue_head_t wait;
  unsigned long id = 0;  // for traces; set by mutex_init
  // lockdep's class: the "file:line" of mutex_init (its static
  // lock_class_key), interned; nullptr for a mutex never initialised.
  const char* lock_class = nullptr;
};
// The lock class is the call site, as the kernel's mutex_init macro's
// static key; `name` is what lockdep calls it (the macro's argument, as
// "&msblk->meta_index_mutex"; nullptr: the site).
void mutex_init(mutex* m, const char* file = __builtin_FILE(),
                int line = __builtin_LINE(), const char* name = nullptr);
void mutex_lock(mutex* m);
// mutex_lock with lockdep's nesting annotation: subclass N > 0 is a class
// of its own, so holding two locks of one class is not recursion.
void mutex_lock_nested(mutex* m, unsigned subclass);
int mutex_trylock(mutex* m);
void mutex_unlock(mutex* m);
int mutex_is_locked(mutex* m);

// A spinning lock: disables preemption while held; contention is modelled
// as waiting (no busy loop), but the waiter may not sleep-check.
struct spinlock_t {
  std::atomic<int> owner{-1};
  wait_queue_head_t wait;
  const char* lock_class = nullptr;  // lockdep's, as for mutex
};
void spin_lock_init(spinlock_t* l, const char* file = __builtin_FILE(),
                    int line = __builtin_LINE(), const char* name = nullptr);
void spin_lock(spinlock_t* l);
void spin_lock_nested(spinlock_t* l, unsigned subclass);
void spin_unlock(spinlock_t* l);
void spin_lock_irqsave(spinlock_t* l, unsigned long& flags);
void spin_unlock_irqrestore(spinlock_t* l, unsigned long flags);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_KERNEL_MUTEX_H_
