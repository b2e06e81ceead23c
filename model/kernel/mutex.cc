// SPDX-License-Identifier: GPL-2.0-only
// This file implements mutexes and spinlocks with the DEBUG_MUTEXES checks.
#include "model/kernel/mutex.h"

#include <mutex>
#include <set>
#include <string>

#include "model/kernel/checkers/lockdep.h"
#include "model/kernel/kernel.h"
#include "model/kernel/kernel_internal.h"
#include "model/kernel/lock_hooks.h"
#include "model/kernel/preempt.h"

namespace squashlab {
namespace {
int Tid(Kernel& k) {
  Task* t = k.current_task();
  return t ? t->id : -2;
}

}  // namespace

void mutex_init(mutex* m, const char* file, int line, const char* name) {
  m->owner.store(-1);
  m->lock_class = lockdep_class(file, line, name, LockKind::kMutex);
  Kernel* k = Kernel::CurrentOrNull();
  m->id = k ? KernelInternal::NextObjectId(*k) : 0;
}

void mutex_lock(mutex* m) { mutex_lock_nested(m, 0); }

void mutex_lock_nested(mutex* m, unsigned subclass) {
  Kernel& k = Kernel::Current();
  k.CheckPtr(m, "mutex_lock");
  k.MightSleep("mutex_lock");
  k.Point("mutex_lock", m->id);
  lockdep_acquire(lockdep_subclass(m->lock_class, subclass), "mutex_lock",
                  false);
  int me = Tid(k);
  for (;;) {
    int expected = -1;
    if (m->owner.compare_exchange_strong(expected, me,
                                         std::memory_order_acquire)) {
      kcsan_acquire(m);
      return;
    }
    k.Sleep(
        m->wait, [m] { return m->owner.load() == -1; }, "mutex_lock", m->id);
  }
}

int mutex_trylock(mutex* m) {
  Kernel& k = Kernel::Current();
  k.CheckPtr(m, "mutex_trylock");
  k.Point("mutex_trylock", m->id);
  int expected = -1;
  if (!m->owner.compare_exchange_strong(expected, Tid(k),
                                        std::memory_order_acquire))
    return 0;
  kcsan_acquire(m);
  lockdep_acquire(m->lock_class, "mutex_trylock", true);
  return 1;
}

void mutex_unlock(mutex* m) {
  Kernel& k = Kernel::Current();
  k.CheckPtr(m, "mutex_unlock");
  k.Point("mutex_unlock", m->id);
  // CONFIG_DEBUG_MUTEXES (a debug kernel): a warning; the unlock goes on.
  if (m->owner.load() != Tid(k) && k.config().debug) {
    k.Warn(Check::kMutexUnlockNotOwner,
           "DEBUG_LOCKS_WARN_ON(__owner_task(owner) != current)",
           "WARNING: at kernel/locking/mutex-debug.c mutex_unlock: the task "
           "does not own the mutex (owner " +
               std::to_string(m->owner.load()) + ")");
  }
  lockdep_release(m->lock_class);
  kcsan_release(m);
  m->owner.store(-1, std::memory_order_release);
  k.Wake(m->wait);
}

int mutex_is_locked(mutex* m) { return m->owner.load() != -1; }

void spin_lock_init(spinlock_t* l, const char* file, int line,
                    const char* name) {
  l->owner.store(-1);
  l->lock_class = lockdep_class(file, line, name, LockKind::kSpinlock);
}

void spin_lock(spinlock_t* l) { spin_lock_nested(l, 0); }

void spin_lock_nested(spinlock_t* l, unsigned subclass) {
  Kernel& k = Kernel::Current();
  k.CheckPtr(l, "spin_lock");
  preempt_disable();
  lockdep_acquire(lockdep_subclass(l->lock_class, subclass), "spin_lock",
                  false);
  int me = Tid(k);
  for (;;) {
    int expected = -1;
    if (l->owner.compare_exchange_strong(expected, me,
                                         std::memory_order_acquire)) {
      kcsan_acquire(l);
      return;
    }
    k.Sleep(
        l->wait, [l] { return l->owner.load() == -1; }, "spin_lock", 0,
        /*spin=*/true);
  }
}

void spin_unlock(spinlock_t* l) {
  Kernel& k = Kernel::Current();
  k.CheckPtr(l, "spin_unlock");
  // CONFIG_DEBUG_SPINLOCK's spin_bug: printed; the unlock goes on.
  if (l->owner.load() != Tid(k) && k.config().debug)
    k.Warn(Check::kSpinlockWrongOwner, "BUG: spinlock wrong owner on CPU",
           "BUG: spinlock wrong owner on CPU#0, " + std::to_string(Tid(k)));
  lockdep_release(l->lock_class);
  kcsan_release(l);
  l->owner.store(-1, std::memory_order_release);
  k.Wake(l->wait);
  preempt_enable();
}

void spin_lock_irqsave(spinlock_t* l, unsigned long& flags) {
  local_irq_save(flags);
  spin_lock(l);
}

void spin_unlock_irqrestore(spinlock_t* l, unsigned long flags) {
  spin_unlock(l);
  local_irq_restore(flags);
}

}  // namespace squashlab
