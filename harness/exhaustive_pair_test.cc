// SPDX-License-Identifier: GPL-2.0-only
// This file implements the tests of exhaustive exploration on the small
// `pair` scenario (two readers, two neighbouring blocks that share a device
// block): the 2013 patch is found at preemption bound 2 by the reduced
// search (partial-order reduction + iterative bounding); a correct variant
// exhausts bound 2 clean, and at bound 1 the reduced search exhausts clean
// with fewer complete schedules than the full one.
#include <gtest/gtest.h>

#include <set>

#include "harness/verify/verify.h"
#include "model/sched/exhaustive_strategy.h"
#include "model/sched/explorer.h"

namespace squashlab {
namespace {

CellResult Exhaust(const std::string& name, int bound, bool por, long budget) {
  auto spec = ScenarioSpec::Parse(name);
  EXPECT_TRUE(spec.ok());
  auto img = DefaultImage();
  EXPECT_TRUE(img.ok());
  auto sc = MakeScenario(spec.value(), img.value());
  EXPECT_TRUE(sc.ok()) << sc.status().ToString();
  VerifyOptions opt;
  opt.strategy = "exhaustive";
  opt.preemption_bound = bound;
  opt.por = por;
  opt.iterative = por;
  opt.budget = budget;
  opt.minimise = false;
  return ExploreScenarios({sc.value()}, opt, 0);
}

TEST(ExhaustivePair, Async2013IsFoundAtBound2) {
  CellResult c = Exhaust("async-2013/single/pair", 2, true, 200000);
  ASSERT_TRUE(c.found);
  EXPECT_FALSE(c.failure.report.title.empty());
  std::printf("async-2013/single/pair: %s after %ld runs\n",
              c.failure.report.title.c_str(), c.first_failing_run);
}

TEST(ExhaustivePair, CorrectVariantExhaustsBound2Clean) {
  CellResult c = Exhaust("file-cache-3.13/single/pair", 2, true, 1000000);
  EXPECT_TRUE(c.exhausted) << c.runs << " runs";
  EXPECT_FALSE(c.found) << c.failure.report.ToString();
}

TEST(ExhaustivePair, ReducedSearchExhaustsWhatTheFullSearchDoes) {
  CellResult full = Exhaust("file-cache-3.13/single/pair", 1, false, 400000);
  CellResult por = Exhaust("file-cache-3.13/single/pair", 1, true, 400000);
  ASSERT_TRUE(full.exhausted);
  ASSERT_TRUE(por.exhausted);
  EXPECT_FALSE(full.found);
  EXPECT_FALSE(por.found);
  EXPECT_GT(por.pruned, 0);
  EXPECT_LT(por.runs - por.pruned, full.runs);
  std::printf(
      "file-cache-3.13/single/pair bound 1: full %ld schedules, reduced %ld "
      "(%ld pruned)\n",
      full.runs, por.runs, por.pruned);
}

// The reduction's footprints are checked against the model itself: at a
// bound where the full search finishes, the reduced search must reach
// every outcome the full one reaches. An outcome is what each task saw
// (the sequence of its operations, arguments and blocking: a trylock that
// failed, a flag found set, takes another path) and the state the run left
// (pages, buffers, slab, reports: Kernel::StateFingerprint).
class ObservingStrategy : public Strategy {
 public:
  explicit ObservingStrategy(Strategy* inner) : inner_(inner) {}
  std::string Name() const override { return inner_->Name(); }
  void BeginRun(uint64_t seed) override {
    seen_.clear();
    inner_->BeginRun(seed);
  }
  int Pick(const std::vector<int>& enabled, int current, bool current_enabled,
           long step) override {
    return inner_->Pick(enabled, current, current_enabled, step);
  }
  bool OnStep(const StepInfo& step) override {
    if (seen_.size() <= static_cast<size_t>(step.task))
      seen_.resize(step.task + 1);
    std::string& s = seen_[step.task];
    s += step.op;
    s += ":" + std::to_string(step.arg) + (step.stopped ? "| " : " ");
    return inner_->OnStep(step);
  }
  bool EndRun(long steps) override { return inner_->EndRun(steps); }
  // What every task saw in the run that just ended.
  std::string Seen() const {
    std::string all;
    for (const std::string& s : seen_) all += s + "\n";
    return all;
  }

 private:
  Strategy* inner_;
  std::vector<std::string> seen_;
};

std::set<std::pair<std::string, uint64_t>> Outcomes(const std::string& name,
                                                    int bound, bool por,
                                                    long* runs) {
  auto spec = ScenarioSpec::Parse(name);
  auto img = DefaultImage();
  auto sc = MakeScenario(spec.value(), img.value());
  EXPECT_TRUE(sc.ok()) << sc.status().ToString();
  ExhaustiveStrategy strategy(bound, por, false);
  const RunSpec run_spec = sc.value();
  strategy.set_footprint(run_spec.footprint);
  ObservingStrategy observer(&strategy);
  Explorer ex;
  std::set<std::pair<std::string, uint64_t>> outcomes;
  for (*runs = 0; *runs < 2000000; ++*runs) {
    uint64_t fp = 0;
    RunResult r = ex.RunOnce(run_spec, observer, 1, false, &fp);
    if (!r.pruned) outcomes.insert({observer.Seen(), fp});
    if (!r.more) break;
  }
  EXPECT_FALSE(strategy.nondeterministic()) << name;
  return outcomes;
}

TEST(ExhaustivePair, ReductionReachesEveryOutcomeOfTheFullSearch) {
  for (auto [name, bound] :
       {std::pair<const char*, int>{"file-cache-3.13/single/pair", 1},
        {"async-fixed/single/pair", 0},
        {"async-2013/single/pair", 0},
        {"async-2013/single/pair///prod", 0}}) {
    long full_runs = 0, por_runs = 0;
    auto full = Outcomes(name, bound, false, &full_runs);
    auto reduced = Outcomes(name, bound, true, &por_runs);
    std::printf("%s bound %d: %zu outcomes; full %ld runs, reduced %ld\n", name,
                bound, full.size(), full_runs, por_runs);
    EXPECT_EQ(reduced, full) << name << " bound " << bound;
    EXPECT_LT(por_runs, full_runs) << name;
  }
}

}  // namespace
}  // namespace squashlab
