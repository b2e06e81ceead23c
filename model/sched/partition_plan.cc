// SPDX-License-Identifier: GPL-2.0-only
// This file implements the planning of a partition's cut.
#include "model/sched/partition_plan.h"

namespace squashlab {

long SubtreesAt(Explorer& explorer, const RunSpec& spec,
                const ExhaustiveFactory& make, uint64_t seed, int cut,
                long limit, bool* deeper) {
  std::unique_ptr<ExhaustiveStrategy> s = make();
  DfsPartition look;
  look.cut = cut;
  look.index = -1;  // own nothing: every run stops at the cut
  s->set_partition(look);
  if (deeper != nullptr) *deeper = false;
  for (;;) {
    RunResult r = explorer.RunOnce(spec, *s, seed, false);
    if (deeper != nullptr) *deeper |= s->reached_cut();
    if (s->subtrees() >= limit || !r.more) return s->subtrees();
  }
}

CutPlan PlanCut(Explorer& explorer, const RunSpec& spec,
                const ExhaustiveFactory& make, uint64_t seed, long target) {
  CutPlan plan;
  int lo = 0, hi = 1;  // fewer than `target` at lo (or lo is 0)
  for (;;) {
    bool deeper = false;
    long n = SubtreesAt(explorer, spec, make, seed, hi, target, &deeper);
    plan.planning_runs += n;
    if (n >= target || !deeper) break;
    lo = hi;
    hi *= 2;
  }
  while (hi - lo > 1) {
    int mid = lo + (hi - lo) / 2;
    long n = SubtreesAt(explorer, spec, make, seed, mid, target);
    plan.planning_runs += n;
    (n >= target ? hi : lo) = mid;
  }
  plan.cut = hi;
  return plan;
}

}  // namespace squashlab
