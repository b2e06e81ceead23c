// SPDX-License-Identifier: GPL-2.0-only
// This file implements mutexes and spinlocks with the DEBUG_MUTEXES checks.
#include "model/kernel/mutex.h"

#include "model/kernel/kernel.h"
#include "model/kernel/kernel_internal.h"
#include "model/kernel/preempt.h"

namespace squashlab {
namespace {
int Tid(Kernel& k) {
  Task* t = k.current_task();
  return t ? t->id : -2;
}
}  // namespace

void mutex_init(mutex* m) {
  m->owner.store(-1);
  Kernel* k = Kernel::CurrentOrNull();
  m->id = k ? KernelInternal::NextObjectId(*k) : 0;
}

void mutex_lock(mutex* m) {
  Kernel& k = Kernel::Current();
  k.CheckPtr(m, "mutex_lock");
  k.MightSleep("mutex_lock");
  k.Point("mutex_lock", m->id);
  int me = Tid(k);
  for (;;) {
    int expected = -1;
    if (m->owner.compare_exchange_strong(expected, me,
                                         std::memory_order_acquire))
      return;
    k.Sleep(
        m->wait, [m] { return m->owner.load() == -1; }, "mutex_lock", m->id);
  }
}

int mutex_trylock(mutex* m) {
  Kernel& k = Kernel::Current();
  k.CheckPtr(m, "mutex_trylock");
  k.Point("mutex_trylock", m->id);
  int expected = -1;
  return m->owner.compare_exchange_strong(expected, Tid(k),
                                          std::memory_order_acquire);
}

void mutex_unlock(mutex* m) {
  Kernel& k = Kernel::Current();
  k.CheckPtr(m, "mutex_unlock");
  k.Point("mutex_unlock", m->id);
  if (m->owner.load() != Tid(k)) {
    k.Bug(ReportKind::kBadContext,
          "DEBUG_LOCKS_WARN_ON(__owner_task(owner) != current)",
          "WARNING: at kernel/locking/mutex-debug.c mutex_unlock: the task "
          "does not own "
          "the mutex (owner " +
              std::to_string(m->owner.load()) + ")");
  }
  m->owner.store(-1, std::memory_order_release);
  k.Wake(m->wait);
}

int mutex_is_locked(mutex* m) { return m->owner.load() != -1; }

void spin_lock_init(spinlock_t* l) { l->owner.store(-1); }

void spin_lock(spinlock_t* l) {
  Kernel& k = Kernel::Current();
  k.CheckPtr(l, "spin_lock");
  preempt_disable();
  int me = Tid(k);
  for (;;) {
    int expected = -1;
    if (l->owner.compare_exchange_strong(expected, me,
                                         std::memory_order_acquire))
      return;
    k.Sleep(
        l->wait, [l] { return l->owner.load() == -1; }, "spin_lock", 0);
  }
}

void spin_unlock(spinlock_t* l) {
  Kernel& k = Kernel::Current();
  k.CheckPtr(l, "spin_unlock");
  if (l->owner.load() != Tid(k))
    k.Bug(ReportKind::kBadContext, "BUG: spinlock wrong owner on CPU",
          "BUG: spinlock wrong owner on CPU#0, " + std::to_string(Tid(k)));
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
