// SPDX-License-Identifier: GPL-2.0-only
// This file implements RunSpec: a named, replayable run as the scheduler
// sees it — a function that sets the system up on an executor, runs it and
// checks it, and the footprint table of its steps for partial-order
// reduction. The kernel's Scenario (model/kernel/scenario.h) converts to
// one; the scheduler never sees what the run is made of.
#ifndef SQUASHLAB_MODEL_SCHED_RUN_SPEC_H_
#define SQUASHLAB_MODEL_SCHED_RUN_SPEC_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "model/base/report.h"
#include "model/sched/executor.h"
#include "model/sched/step_footprint.h"

namespace squashlab {

// What one run found.
struct ScenarioOutcome {
  Report report;                // the first one
  std::vector<Report> reports;  // all, warnings included, in order
  RunOutcome run;
  bool ok() const { return report.empty() && run.completed; }
};

struct RunSpec {
  std::string name;  // no ':' (it is a field of replay tokens)
  // One run on `exec` (which holds no tasks of an earlier run) with `seed`.
  // `fingerprint`: if set, receives a hash of the state the run left.
  std::function<ScenarioOutcome(Executor& exec, uint64_t seed,
                                uint64_t* fingerprint)>
      run;
  // What each step touches (empty: everything).
  FootprintFn footprint;
};

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_SCHED_RUN_SPEC_H_
