// SPDX-License-Identifier: GPL-2.0-only
// This file implements PlanCut: where to cut an exhaustive search into
// subtrees (dfs_partition.h) so that there are enough of them to balance
// the parts. The plan is a function of the run and the search alone, so
// every part, in any process, plans the same cut.
#ifndef SQUASHLAB_MODEL_SCHED_PARTITION_PLAN_H_
#define SQUASHLAB_MODEL_SCHED_PARTITION_PLAN_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "model/sched/exhaustive_strategy.h"
#include "model/sched/explorer.h"
#include "model/sched/run_spec.h"

namespace squashlab {

// Makes a fresh strategy of the search to partition (bound, reduction,
// footprints set; no partition yet).
using ExhaustiveFactory = std::function<std::unique_ptr<ExhaustiveStrategy>()>;

// The shallowest cut with at least `target` subtrees, or, when the whole
// tree has fewer runs than that, one below all of them (each run its own
// subtree). Planning a cut of depth d runs the top of the tree down to d,
// at most `target` short runs; the search doubles d, then bisects.
int PlanCut(Explorer& explorer, const RunSpec& spec,
            const ExhaustiveFactory& make, uint64_t seed, long target);

// How many subtrees the cut at depth `cut` makes, counting no further than
// `limit`; `deeper`, if set, says whether some run reached the cut;
// `paths`, if set, receives each subtree's root (the position a strategy
// restores to search it).
long SubtreesAt(Explorer& explorer, const RunSpec& spec,
                const ExhaustiveFactory& make, uint64_t seed, int cut,
                long limit, bool* deeper = nullptr,
                std::vector<ExhaustiveStrategy::Position>* paths = nullptr);

// Probes per subtree when the parts' shares are planned (after the default
// path, which counts the preemption points the probes' odds spread the
// bound over): the mean of a few tells the few giants from the many small.
constexpr int kProbesPerSubtree = 8;

struct OwnerPlan {
  std::vector<int> owners;       // the part of each subtree at the cut
  std::vector<double> estimate;  // each subtree's estimated runs
};

// Assigns the subtrees of the cut at depth `cut` to `parts` parts by their
// estimated sizes (`probes` random runs each, seeded from `seed`, see
// ExhaustiveStrategy::set_probe), largest first, each to the part with the
// least estimated work so far (ties: the lower subtree, the lower part).
// Deterministic: every part, in any process, computes the same plan.
OwnerPlan PlanOwners(Explorer& explorer, const RunSpec& spec,
                     const ExhaustiveFactory& make, uint64_t seed, int cut,
                     int parts, int probes = kProbesPerSubtree);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_SCHED_PARTITION_PLAN_H_
