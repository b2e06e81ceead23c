// SPDX-License-Identifier: GPL-2.0-only
// This file declares one explore run of a scenario, for the callers that
// drive single runs themselves (the property tests, the schedule fuzzer):
// under a named strategy from a seed, or with every choice point read from
// a byte string (model/sched/bytes_strategy.h). RunResult (the run's
// reports, schedule and replay token) is the scheduler's own.
#ifndef SQUASHLAB_HARNESS_EXPLORE_ONCE_H_
#define SQUASHLAB_HARNESS_EXPLORE_ONCE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "model/kernel/scenario.h"
#include "model/sched/explorer.h"

namespace squashlab {

// One run of `sc` under `strategy` ("pct" or "random", as verify names
// them) from `seed`, in a fresh explorer.
RunResult ExploreOnce(const Scenario& sc, const std::string& strategy,
                      uint64_t seed, bool trace = false);

// One run whose choice points read `choices` one byte each (0 keeps the
// current task, k preempts it for the k-th enabled task after it; past the
// end: no preemption); *consumed receives the bytes used. One explorer per
// thread is reused across calls (fibers and stacks).
RunResult ExploreOnceWithChoices(const Scenario& sc,
                                 const std::vector<uint8_t>& choices,
                                 uint64_t seed, bool trace, size_t* consumed);

}  // namespace squashlab

#endif  // SQUASHLAB_HARNESS_EXPLORE_ONCE_H_
