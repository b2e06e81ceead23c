// SPDX-License-Identifier: GPL-2.0-only
// This file implements the planning of a partition's cut.
#include "model/sched/partition_plan.h"

#include <algorithm>
#include <numeric>

#include "model/base/rng.h"

namespace squashlab {

long SubtreesAt(Explorer& explorer, const RunSpec& spec,
                const ExhaustiveFactory& make, uint64_t seed, int cut,
                long limit, bool* deeper,
                std::vector<ExhaustiveStrategy::Position>* paths) {
  std::unique_ptr<ExhaustiveStrategy> s = make();
  DfsPartition look;
  look.cut = cut;
  look.index = -1;  // own nothing: every run stops at the cut
  s->set_partition(look);
  if (paths != nullptr) s->set_record_paths(paths);
  if (deeper != nullptr) *deeper = false;
  for (;;) {
    RunResult r = explorer.RunOnce(spec, *s, seed, false);
    if (deeper != nullptr) *deeper |= s->reached_cut();
    if (s->subtrees() >= limit || !r.more) return s->subtrees();
  }
}

int PlanCut(Explorer& explorer, const RunSpec& spec,
            const ExhaustiveFactory& make, uint64_t seed, long target) {
  int lo = 0, hi = 1;  // fewer than `target` at lo (or lo is 0)
  for (;;) {
    bool deeper = false;
    long n = SubtreesAt(explorer, spec, make, seed, hi, target, &deeper);
    if (n >= target || !deeper) break;
    lo = hi;
    hi *= 2;
  }
  while (hi - lo > 1) {
    int mid = lo + (hi - lo) / 2;
    long n = SubtreesAt(explorer, spec, make, seed, mid, target);
    (n >= target ? hi : lo) = mid;
  }
  return hi;
}

OwnerPlan PlanOwners(Explorer& explorer, const RunSpec& spec,
                     const ExhaustiveFactory& make, uint64_t seed, int cut,
                     int parts, int probes) {
  OwnerPlan plan;
  std::vector<ExhaustiveStrategy::Position> paths;
  SubtreesAt(explorer, spec, make, seed, cut, 1L << 62, nullptr, &paths);
  for (size_t k = 0; k < paths.size(); k++) {
    double sum = 0;
    // (a leaf above the cut is one run)
    const int n = paths[k].stack.empty() ? 0 : probes;
    long points = -1;  // first the default path, to count its points
    for (int p = -1; p < n && n > 0; p++) {
      std::unique_ptr<ExhaustiveStrategy> s = make();
      s->Restore(paths[k]);
      s->set_probe(Rng::Mix(Rng::Mix(seed, k), static_cast<uint64_t>(p + 1)),
                   points);
      explorer.RunOnce(spec, *s, seed, false);
      if (p < 0)
        points = s->probe_points();
      else
        sum += s->probe_estimate();
    }
    plan.estimate.push_back(n > 0 ? sum / n : 1);
  }
  std::vector<size_t> order(paths.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return plan.estimate[a] > plan.estimate[b];
  });
  std::vector<double> load(static_cast<size_t>(std::max(parts, 1)), 0);
  plan.owners.assign(paths.size(), 0);
  for (size_t k : order) {
    const size_t to = static_cast<size_t>(
        std::min_element(load.begin(), load.end()) - load.begin());
    plan.owners[k] = static_cast<int>(to);
    load[to] += plan.estimate[k];
  }
  return plan;
}

}  // namespace squashlab
