// This file implements the tests of exhaustive exploration on the small
// `pair` scenario (two readers, two neighbouring blocks that share a device
// block): the 2013 patch is found at preemption bound 2 by the reduced
// search (partial-order reduction + iterative bounding); a correct variant
// exhausts bound 2 clean, and at bound 1 the reduced search exhausts clean
// with fewer complete schedules than the full one.
#include <gtest/gtest.h>

#include "model/verify/verify.h"

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
  std::printf("async-2013/single/pair: %s after %ld runs\n", c.failure.report.title.c_str(),
              c.first_failing_run);
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
  std::printf("file-cache-3.13/single/pair bound 1: full %ld schedules, reduced %ld (%ld pruned)\n",
              full.runs, por.runs, por.pruned);
}

}  // namespace
}  // namespace squashlab
