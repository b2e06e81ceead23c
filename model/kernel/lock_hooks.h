// SPDX-License-Identifier: GPL-2.0-only
// This file declares the hooks the model's synchronisation calls on every
// lock and unlock (mutex.cc, the bridge's local_lock) and on every other
// happens-before edge (bio submission and completion): the lock validator's
// acquire / release (kernel/locking/lockdep.c lock_acquire, lock_release)
// and the data-race detector's release / acquire (model/kernel/checkers).
#ifndef SQUASHLAB_MODEL_KERNEL_LOCK_HOOKS_H_
#define SQUASHLAB_MODEL_KERNEL_LOCK_HOOKS_H_

namespace squashlab {

// The current task takes a lock of class `cls` (interned by
// lockdep_class; nullptr: a lock never initialised, not tracked), at the
// code under test's call site, as __lock_acquire: the class's hardirq
// usage is marked (mark_usage: in hardirq context, or with hardirqs on
// outside one; a class used both ways is "inconsistent lock state" at the
// second usage, whether or not the interrupt ever arrives while the lock
// is held); then a blocking acquisition is checked against the task's held
// locks (Task::held_locks, the kernel's current->held_locks) before it may
// block; a trylock only joins the held set. No-ops on a production kernel.
void lockdep_acquire(const char* cls, const char* fn, bool trylock);
void lockdep_release(const char* cls);

// Happens-before through a synchronisation object for the data-race
// detector: no-ops unless the current kernel runs KCSAN
// (KernelConfig::kcsan).
void kcsan_release(const void* sync);
void kcsan_acquire(const void* sync);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_KERNEL_LOCK_HOOKS_H_
