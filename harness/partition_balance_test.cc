// SPDX-License-Identifier: GPL-2.0-only
// This file implements the tests of the parts' planned shares: PlanOwners
// gives every subtree of the cut one part, as a largest-first greedy
// assignment of its estimates would, and parts in separate processes that
// share by the plan split the runs more evenly than parts that share by
// number (the parts' union is the whole search either way:
// partition_equivalence_test).
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "harness/campaign/campaign.h"
#include "harness/test_scenarios.h"
#include "model/sched/exhaustive_strategy.h"
#include "model/sched/partition_plan.h"

namespace squashlab {
namespace {

VerifyOptions Options(const std::string& variant, int bound) {
  return ExhaustivePair(variant, bound, {"debug"});
}

RunSpec FirstScenario(const VerifyOptions& v) {
  auto cells = MakeCells(v);
  EXPECT_TRUE(cells.ok()) << cells.status().ToString();
  return cells->front().scenarios.front();
}

ExhaustiveFactory Factory(const VerifyOptions& v, const RunSpec& spec) {
  return [&v, &spec] {
    auto s = std::make_unique<ExhaustiveStrategy>(v.preemption_bound, v.por,
                                                  v.iterative);
    s->set_footprint(spec.footprint);
    return s;
  };
}

// The runs each subtree of the cut holds, counted by searching them all.
std::vector<long> SubtreeSizes(Explorer& e, const RunSpec& spec,
                               const ExhaustiveFactory& make, uint64_t seed,
                               int cut) {
  auto s = make();
  DfsPartition all;
  all.cut = cut;
  all.claim = [](long) { return true; };
  s->set_partition(all);
  std::vector<long> sizes;
  for (bool more = true; more;) {
    RunResult r = e.RunOnce(spec, *s, seed, false);
    more = r.more;
    if (s->subtree() >= static_cast<long>(sizes.size()))
      sizes.resize(static_cast<size_t>(s->subtree()) + 1, 0);
    sizes[static_cast<size_t>(s->subtree())]++;
  }
  return sizes;
}

TEST(PlanOwners, EverySubtreeOnePartLargestFirst) {
  const VerifyOptions v = Options("file-cache-3.13", 1);
  const RunSpec spec = FirstScenario(v);
  const ExhaustiveFactory make = Factory(v, spec);
  Explorer e;
  for (int parts : {2, 3, 7}) {
    const int cut = PlanCut(e, spec, make, v.seed, 8L * parts);
    const OwnerPlan plan = PlanOwners(e, spec, make, v.seed, cut, parts);
    const long subtrees = SubtreesAt(e, spec, make, v.seed, cut, 1L << 62);
    ASSERT_EQ(static_cast<long>(plan.owners.size()), subtrees);
    ASSERT_EQ(plan.estimate.size(), plan.owners.size());
    std::vector<double> load(static_cast<size_t>(parts), 0);
    for (size_t k = 0; k < plan.owners.size(); k++) {
      ASSERT_GE(plan.owners[k], 0);
      ASSERT_LT(plan.owners[k], parts);
      EXPECT_GE(plan.estimate[k], 1.0);  // a subtree holds a run at least
      load[static_cast<size_t>(plan.owners[k])] += plan.estimate[k];
    }
    // Largest first to the least loaded: no part exceeds the mean by more
    // than the largest estimate (Graham's bound for that order).
    const double mean = std::accumulate(load.begin(), load.end(), 0.0) / parts;
    const double largest =
        *std::max_element(plan.estimate.begin(), plan.estimate.end());
    EXPECT_LE(*std::max_element(load.begin(), load.end()),
              mean + largest + 1e-9)
        << parts << " parts";
    // The same plan in another process (here: another explorer).
    Explorer other;
    EXPECT_EQ(PlanOwners(other, spec, make, v.seed, cut, parts).owners,
              plan.owners);
  }
}

// Knuth's estimator is unbiased; with a few probes a subtree's estimate is
// rough, but the estimates must rank the giant subtrees above the rest and
// add up to the right order of magnitude.
TEST(PlanOwners, EstimatesFollowTheSubtreesSizes) {
  constexpr double kFactor = 3;
  const VerifyOptions v = Options("async-2013", 1);
  const RunSpec spec = FirstScenario(v);
  const ExhaustiveFactory make = Factory(v, spec);
  Explorer e;
  const int cut = PlanCut(e, spec, make, v.seed, 24);
  const OwnerPlan plan = PlanOwners(e, spec, make, v.seed, cut, 3);
  const std::vector<long> sizes = SubtreeSizes(e, spec, make, v.seed, cut);
  ASSERT_EQ(sizes.size(), plan.estimate.size());
  const double actual = std::accumulate(sizes.begin(), sizes.end(), 0.0);
  const double estimated =
      std::accumulate(plan.estimate.begin(), plan.estimate.end(), 0.0);
  std::printf("cut %d: %zu subtrees, %.0f runs, estimated %.0f\n", cut,
              sizes.size(), actual, estimated);
  EXPECT_GT(estimated, actual / kFactor);
  EXPECT_LT(estimated, actual * kFactor);
  const size_t biggest = static_cast<size_t>(
      std::max_element(sizes.begin(), sizes.end()) - sizes.begin());
  std::vector<double> sorted = plan.estimate;
  std::sort(sorted.rbegin(), sorted.rend());
  EXPECT_GE(plan.estimate[biggest], sorted[sorted.size() / 4])
      << "the largest subtree is not among the estimated largest quarter";
}

// Runs of each part, parts run one after another as separate processes
// would (no claims).
std::vector<long> PartRuns(const VerifyOptions& v, int parts, bool planned) {
  std::vector<long> runs;
  for (int i = 0; i < parts; i++) {
    CampaignOptions o;
    o.verify = v;
    o.part = i;
    o.parts = parts;
    o.planned_shares = planned;
    auto r = RunCampaign(o, nullptr, CampaignHooks{});
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    runs.push_back(r->cells.front().runs);
  }
  return runs;
}

TEST(PartitionBalance, PlannedSharesEvenOutSeparateParts) {
  for (const char* variant : {"file-cache-3.13", "async-2013"}) {
    const VerifyOptions v = Options(variant, 1);
    for (int parts : {3, 7}) {
      const std::vector<long> by_number = PartRuns(v, parts, false);
      const std::vector<long> planned = PartRuns(v, parts, true);
      const long total =
          std::accumulate(by_number.begin(), by_number.end(), 0L);
      EXPECT_EQ(std::accumulate(planned.begin(), planned.end(), 0L), total);
      const long worst_number =
          *std::max_element(by_number.begin(), by_number.end());
      const long worst_planned =
          *std::max_element(planned.begin(), planned.end());
      std::printf(
          "%s, %d parts, %ld runs: largest part %ld by number, %ld "
          "planned\n",
          variant, parts, total, worst_number, worst_planned);
      EXPECT_LE(worst_planned, worst_number) << variant << ", " << parts;
    }
  }
}

}  // namespace
}  // namespace squashlab
