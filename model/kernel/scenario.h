// SPDX-License-Identifier: GPL-2.0-only
// This file implements Scenario: a named, replayable setup of one run — the
// kernel configuration and a function that creates the objects, spawns the
// tasks and registers the run's quiescence oracle (Kernel::AtQuiescence).
#ifndef SQUASHLAB_MODEL_KERNEL_SCENARIO_H_
#define SQUASHLAB_MODEL_KERNEL_SCENARIO_H_

#include <functional>
#include <string>
#include <vector>

#include "model/kernel/kernel.h"
#include "model/sched/run_spec.h"

namespace squashlab {

struct Scenario {
  std::string name;  // no ':' (it is a field of replay tokens)
  KernelConfig config;
  std::function<void(Kernel&)> setup;
  // Partial-order reduction: the interrupt handlers share nothing before
  // their first point (see FootprintOf in api_footprints.h).
  bool irq_starts_commute = false;

  // The scheduler's view: RunScenario, and the kernel API's footprints
  // (a debug kernel's slab never reuses an object during a run).
  operator RunSpec() const;
};

// One run of `sc` on `exec`: setup, Run, then the quiescence checks (only
// when the run completed). REQUIRES: exec holds no tasks of an earlier run.
// `fingerprint`: if set, receives Kernel::StateFingerprint at the end.
ScenarioOutcome RunScenario(const Scenario& sc, Executor& exec, uint64_t seed,
                            uint64_t* fingerprint = nullptr);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_KERNEL_SCENARIO_H_
