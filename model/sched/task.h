// SPDX-License-Identifier: GPL-2.0-only
// This file implements Task: one schedulable thread of the model (a reader
// process, an interrupt handler, a workqueue worker), shared by all executors.
#ifndef SQUASHLAB_MODEL_SCHED_TASK_H_
#define SQUASHLAB_MODEL_SCHED_TASK_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace squashlab {

struct WaitList;
struct blk_plug;

enum class TaskContext { kProcess, kInterrupt, kWorkqueue };

struct TaskSpec {
  std::string name;  // "dd", "kworker/0:1", "irq/mmc0"
  TaskContext context = TaskContext::kProcess;
  int cpu = -1;           // -1: the executor assigns one
  int prio = 0;           // higher runs first (simulate only)
  uint64_t start_ns = 0;  // earliest start in virtual time (simulate)
  std::function<void()> body;
  // /proc/PID/make-it-fail: fault injection's task filter selects it.
  bool make_it_fail = false;
};

enum class TaskState { kRunnable, kBlocked, kDone };

// Per-task state the kernel API reads and writes (the kernel's thread_info
// and task_struct). Executors own tasks; the API sees them via Current().
struct Task {
  int id = 0;
  TaskSpec spec;
  int cpu = 0;
  TaskState state = TaskState::kRunnable;
  bool started = false;
  int preempt_count = 0;    // preempt_disable depth (get_cpu_ptr, spinlocks)
  int migrate_disable = 0;  // local_lock on PREEMPT_RT
  int irqs_disabled = 0;    // local_irq_save depth
  WaitList* blocked_on = nullptr;
  blk_plug* plug = nullptr;  // the kernel's current->plug (the kernel layer's)
  // lockdep's current->held_locks: the interned classes of the locks the
  // task holds, in order (the kernel layer's; lockdep.h).
  std::vector<const char*> held_locks;
  std::vector<std::string> held_at;  // where each was taken (lockdep's ip)
  const char* blocked_in = "";       // the API function it sleeps in
  // Fault injection (model/kernel/fault_inject.h): current->fail_nth (-1:
  // not drawn yet) and how many injection points the task has passed.
  int fail_nth = -1;
  uint32_t fault_points = 0;
  // current->kmap_ctrl: the task's kmap_local mappings, innermost last
  // (model/kernel/kmap_local.h).
  std::vector<uintptr_t> kmap_local;
  // The task's window of fixmap slots those mappings occupy under
  // CONFIG_DEBUG_KMAP_LOCAL_FORCE_MAP (the kernel layer's; null until the
  // task's first kmap_local).
  void* kmap_window = nullptr;
  uint64_t blocked_arg = 0;
  std::string Comm() const { return spec.name + ":" + std::to_string(id); }
  bool in_interrupt() const { return spec.context == TaskContext::kInterrupt; }
  bool atomic() const {
    return preempt_count > 0 || irqs_disabled > 0 || in_interrupt();
  }
};

// Thrown inside a task when a report ends its run (the kernel's oops), and
// when the executor tears a run down. Caught only by the executors' task
// trampolines; never crosses the model's boundary.
struct TaskOops {};

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_SCHED_TASK_H_
