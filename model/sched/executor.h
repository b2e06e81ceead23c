// SPDX-License-Identifier: GPL-2.0-only
// This file implements the Executor interface: the one scheduler API the
// kernel emulation runs on, with explore, simulate and threads behind it.
#ifndef SQUASHLAB_MODEL_SCHED_EXECUTOR_H_
#define SQUASHLAB_MODEL_SCHED_EXECUTOR_H_

#include <cstdint>
#include <functional>

#include "model/sched/run_hooks.h"
#include "model/sched/task.h"

namespace squashlab {

// Costs the simulate executor charges in virtual time; others ignore them.
enum class CostKind {
  kApiCall,         // any kernel-API call (a scheduling point)
  kPageCacheOp,     // find_get_page, add_to_page_cache_lru, ...
  kMemcpyByte,      // units = bytes
  kDecompressByte,  // units = output bytes; per codec
  kWorkDispatch,    // queue_work -> worker start
  kIrqEntry,        // an interrupt task starting
  kCompute,         // units = nanoseconds, charged as given
};

// How a run ended.
struct RunOutcome {
  bool completed = false;  // all tasks finished (quiescence reached)
  long steps = 0;          // scheduling points executed
  uint64_t end_ns = 0;     // virtual end time (simulate) or wall ns (threads)
};

class Executor {
 public:
  virtual ~Executor() = default;

  // Creates a task. Callable during setup and from running tasks.
  virtual Task* Spawn(TaskSpec spec) = 0;
  // The task running on this thread, or nullptr outside any task.
  virtual Task* Current() = 0;
  // Current() without the virtual call, for the kernel API's hot paths
  // (every call asks): an executor that runs one task at a time on one
  // thread keeps it in running_ (tracks_running_), the others answer
  // through Current().
  Task* Running() { return tracks_running_ ? running_ : Current(); }
  // A scheduling point before the operation `op` on object `arg`.
  virtual void Point(const char* op, uint64_t arg) = 0;
  // Sleeps on `wq` until cond() holds; cond() is re-checked after every
  // wake_up, as the kernel's wait_event does. REQUIRES: inside a task.
  virtual void WaitEvent(WaitList& wq, const std::function<bool()>& cond) = 0;
  virtual void WakeUp(WaitList& wq) = 0;
  // update(arg), then WakeUp(wq), as one step against the waiters of wq: a
  // waiter that sees update's effect cannot return before the wake-up is
  // done with wq. complete() needs it: its waiter may free the completion
  // (on its stack) as soon as it returns, and the kernel's complete() holds
  // the wait queue's lock across done++ and the wake-up for that reason.
  virtual void WakeUpAfter(WaitList& wq, void (*update)(void*), void* arg) {
    update(arg);
    WakeUp(wq);
  }
  // Virtual-time cost (simulate); a no-op elsewhere.
  virtual void Charge(CostKind kind, uint64_t units,
                      const char* codec = nullptr) = 0;
  // Lets time pass for the current task (msleep, a device's latency).
  virtual void Delay(uint64_t ns) = 0;
  virtual uint64_t NowNs() = 0;
  // Scheduling points executed so far in this run.
  virtual long Steps() = 0;
  // Called by the kernel after recording a report: stops the run.
  virtual void OnReport() = 0;
  // Runs all spawned tasks until they finish, a report fires, or a hang.
  // REQUIRES: a run attached (Attach).
  virtual RunOutcome Run() = 0;
  virtual const char* Name() const = 0;
  // The strategy gave up on this run before its end (explore only): what
  // the run left is nobody's outcome.
  virtual bool abandoned() const { return false; }
  // Whether tasks run truly concurrently, on several threads (threads).
  // The explore and simulate executors run one task at a time on the
  // caller's thread: what a run shares needs no lock there.
  virtual bool Concurrent() const { return false; }
  // Preemption of the current task turned off (count 0 -> 1) or back on.
  // The threads executor makes a CPU's non-preemptible sections exclusive.
  virtual void PreemptOff(Task&) {}
  virtual void PreemptOn(Task&) {}

  // The run the executor serves, from its setup on (Spawn places tasks on
  // its CPUs). The kernel of the run attaches itself when it is created.
  void Attach(RunHooks* hooks) { hooks_ = hooks; }
  RunHooks* hooks() const { return hooks_; }

 protected:
  int Cpus() const { return hooks_ ? hooks_->Cpus() : 1; }

  RunHooks* hooks_ = nullptr;
  bool tracks_running_ = false;
  Task* running_ = nullptr;  // when tracks_running_: what Current() returns
};

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_SCHED_EXECUTOR_H_
