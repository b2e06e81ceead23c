// SPDX-License-Identifier: GPL-2.0-only
// This file declares RunHooks: what an executor needs from the system it
// runs (the emulated kernel of one run), and nothing more. The scheduler
// knows tasks, steps and wait queues; the kernel behind these hooks knows
// pages, buffers and reports. Kernel implements it.
#ifndef SQUASHLAB_MODEL_SCHED_RUN_HOOKS_H_
#define SQUASHLAB_MODEL_SCHED_RUN_HOOKS_H_

#include <cstdint>
#include <vector>

namespace squashlab {

struct Task;

class RunHooks {
 public:
  virtual ~RunHooks() = default;
  // CPUs of the run (tasks are placed on them).
  virtual int Cpus() const = 0;
  // Steps after which a run is reported as a livelock.
  virtual long MaxSteps() const = 0;
  // A fatal report was recorded: the run is over.
  virtual bool Fatal() const = 0;
  // The run exceeded MaxSteps(): record it.
  virtual void StepLimitExceeded() = 0;
  // No task can ever run again: `stuck` are the tasks left.
  virtual void Hang(const std::vector<const Task*>& stuck) = 0;
  // A worker thread of the threads executor starts: bind the run to it.
  virtual void EnterThread() = 0;
  // Counters the partial-order reduction compares before and after a step:
  // numbered objects created (their ids follow creation order), and effects
  // wider than the step's operation (a report, a page freed).
  virtual uint64_t ObjectIdsIssued() const = 0;
  virtual uint64_t WideEffects() const = 0;
};

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_SCHED_RUN_HOOKS_H_
