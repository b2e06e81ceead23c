// SPDX-License-Identifier: GPL-2.0-only
// This file implements preemption control, per-CPU access checks and the RT
// local lock.
#include "model/kernel/preempt.h"

#include <cstdio>

#include "model/kernel/kernel.h"
#include "model/kernel/kernel_internal.h"

namespace squashlab {
namespace {
Task* Cur() { return Kernel::Current().current_task(); }
}  // namespace

void preempt_disable() {
  Kernel& k = Kernel::Current();
  k.Point("preempt_disable", 0);
  Task* t = k.current_task();
  if (t == nullptr) return;
  if (t->preempt_count++ == 0) KernelInternal::Exec(k).PreemptOff(*t);
}

void preempt_enable() {
  Kernel& k = Kernel::Current();
  Task* t = k.current_task();
  if (t == nullptr) return;
  if (t->preempt_count == 0)  // the kernel warns and leaves the count alone
    return k.Warn(Check::kPreemptCountUnderflow,
                  "BUG: preempt_enable: preempt_count underflow",
                  "WARNING: at kernel/sched/core.c preempt_count_sub: "
                  "DEBUG_LOCKS_WARN_ON(val > "
                  "preempt_count())\nComm: " +
                      t->Comm());
  if (--t->preempt_count == 0) KernelInternal::Exec(k).PreemptOn(*t);
  k.Point("preempt_enable", 0);  // a preemption point, as in the kernel
}

int preempt_count() {
  Task* t = Cur();
  return t ? t->preempt_count : 0;
}
int in_interrupt() {
  Task* t = Cur();
  return t && t->in_interrupt();
}
int in_atomic() {
  Task* t = Cur();
  return t && t->atomic();
}

void local_irq_disable() {
  Task* t = Cur();
  if (t) t->irqs_disabled++;
}
void local_irq_enable() {
  Task* t = Cur();
  if (t && t->irqs_disabled > 0) t->irqs_disabled--;
}
void local_irq_save(unsigned long& flags) {
  Task* t = Cur();
  flags = t ? t->irqs_disabled : 0;
  local_irq_disable();
}
void local_irq_restore(unsigned long flags) {
  Task* t = Cur();
  if (t) t->irqs_disabled = static_cast<int>(flags);
}

void migrate_disable() {
  Task* t = Cur();
  if (t) t->migrate_disable++;
}
void migrate_enable() {
  Task* t = Cur();
  if (t && t->migrate_disable > 0) t->migrate_disable--;
}

int smp_processor_id() {
  Kernel& k = Kernel::Current();
  Task* t = k.current_task();
  if (t == nullptr) return 0;
  if (t->preempt_count == 0 && t->migrate_disable == 0 && !t->in_interrupt() &&
      t->irqs_disabled == 0 && k.config().debug) {
    char buf[128];
    std::snprintf(
        buf, sizeof buf,
        "BUG: using smp_processor_id() in preemptible [00000000] code: %s/%d",
        t->spec.name.c_str(), t->id);
    k.Warn(Check::kSmpProcessorIdPreemptible,
           "BUG: using smp_processor_id() in preemptible code", buf);
  }
  return t->cpu;
}

int raw_smp_processor_id() {
  Task* t = Cur();
  return t ? t->cpu : 0;
}

void might_sleep() {
  Kernel& k = Kernel::Current();
  k.MightSleep("might_sleep");
}

void msleep(unsigned int ms) {
  Kernel& k = Kernel::Current();
  k.MightSleep("msleep");
  k.ScheduleCheck("msleep");
  k.Delay(static_cast<uint64_t>(ms) * 1000000);
}

void usleep_range(unsigned long min_us, unsigned long) {
  Kernel& k = Kernel::Current();
  k.MightSleep("usleep_range");
  k.ScheduleCheck("usleep_range");
  k.Delay(static_cast<uint64_t>(min_us) * 1000);
}

void udelay(unsigned long us) {
  Kernel& k = Kernel::Current();
  k.Charge(CostKind::kCompute, static_cast<uint64_t>(us) * 1000);
  k.Point("udelay", us);
}

static mutex* CpuLock(local_irq_lock& lock, int cpu) {
  Kernel& k = Kernel::Current();
  std::lock_guard<RunMutex> l(KernelInternal::TreeLock(k));
  if (lock.per_cpu.empty()) {
    for (int i = 0; i < k.config().ncpus; i++) {
      lock.per_cpu.push_back(std::make_unique<mutex>());
      lock.per_cpu.back()->id = 1000 + i;
    }
  }
  return lock.per_cpu[cpu].get();
}

void local_lock(local_irq_lock& lock) {
  Kernel& k = Kernel::Current();
  if (!k.config().preempt_rt) return preempt_disable();
  migrate_disable();
  mutex_lock(CpuLock(lock, raw_smp_processor_id()));
}

void local_unlock(local_irq_lock& lock) {
  Kernel& k = Kernel::Current();
  if (!k.config().preempt_rt) return preempt_enable();
  mutex_unlock(CpuLock(lock, raw_smp_processor_id()));
  migrate_enable();
}

}  // namespace squashlab
