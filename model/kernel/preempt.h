// SPDX-License-Identifier: GPL-2.0-only
// This file implements preemption and per-CPU data: preempt_disable /
// preempt_enable, local_irq_save, smp_processor_id, the per-CPU variables
// behind get_cpu_ptr / put_cpu_ptr / this_cpu_ptr, and the RT local lock
// (DEFINE_LOCAL_IRQ_LOCK, local_lock, get_locked_ptr) of the 2018 RT thread.
#ifndef SQUASHLAB_MODEL_KERNEL_PREEMPT_H_
#define SQUASHLAB_MODEL_KERNEL_PREEMPT_H_

#include <memory>
#include <vector>

#include "model/kernel/kernel.h"
#include "model/kernel/mutex.h"

namespace squashlab {

void preempt_disable();
void preempt_enable();
int preempt_count();
int in_interrupt();
int in_atomic();
void local_irq_disable();
void local_irq_enable();
void local_irq_save(unsigned long& flags);
void local_irq_restore(unsigned long flags);
void migrate_disable();
void migrate_enable();
// REQUIRES: preemption or migration disabled, else "BUG: using
// smp_processor_id() in preemptible code".
int smp_processor_id();
int raw_smp_processor_id();
void might_sleep();
// Time: msleep sleeps (might_sleep; virtual time in simulate, scaled real
// time in threads, a scheduling point in explore); udelay busy-waits
// (allowed in atomic context; costs CPU time in simulate).
void msleep(unsigned int ms);
void usleep_range(unsigned long min_us, unsigned long max_us);
void udelay(unsigned long us);

// A per-CPU variable: one T per CPU of the run's kernel.
template <typename T>
struct percpu {
  std::vector<T> slots;
};
// One T per CPU of the current kernel, owned by the run (so an oops never
// leaks it); free_percpu only marks the end of its use.
template <typename T>
percpu<T>* alloc_percpu() {
  Kernel& k = Kernel::Current();
  auto* p = k.New<percpu<T>>();
  p->slots.resize(k.config().ncpus);
  return p;
}
template <typename T>
void free_percpu(percpu<T>*) {}
template <typename T>
T* per_cpu_ptr(percpu<T>* p, int cpu) {
  return &p->slots[cpu];
}
// Disables preemption and returns this CPU's slot.
template <typename T>
T* get_cpu_ptr(percpu<T>* p) {
  preempt_disable();
  return &p->slots[smp_processor_id()];
}
template <typename T>
void put_cpu_ptr(T*) {
  preempt_enable();
}
template <typename T>
T* this_cpu_ptr(percpu<T>* p) {
  return &p->slots[smp_processor_id()];
}

// The -rt local lock: on PREEMPT_RT a per-CPU sleeping lock plus
// migrate_disable (the holder stays preemptible); otherwise preempt_disable.
struct local_irq_lock {
  std::vector<std::unique_ptr<mutex>> per_cpu;  // created on first use
};
#define DEFINE_LOCAL_IRQ_LOCK(name) ::squashlab::local_irq_lock name
void local_lock(local_irq_lock& lock);
void local_unlock(local_irq_lock& lock);
template <typename T>
T* get_locked_ptr(local_irq_lock& lock, percpu<T>* p) {
  local_lock(lock);
  return this_cpu_ptr(p);
}
template <typename T>
void put_locked_ptr(local_irq_lock& lock, T*) {
  local_unlock(lock);
}

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_KERNEL_PREEMPT_H_
