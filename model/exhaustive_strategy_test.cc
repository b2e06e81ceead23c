// Tests of ExhaustiveStrategy driven directly: a run that diverges from the
// recorded prefix must never be handed a task that cannot run.
#include "model/exhaustive_strategy.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace squashlab {
namespace {

TEST(ExhaustiveStrategyTest, DivergingRunGetsARunnableChoiceAndIsFlagged) {
  ExhaustiveStrategy s(/*preemption_bound=*/2);
  s.BeginRun(0);
  EXPECT_EQ(s.Pick({0, 1}, 0, true, 0), 0);  // non-preemptive default first
  EXPECT_EQ(s.Pick({0, 1}, 0, true, 1), 0);
  ASSERT_TRUE(s.EndRun(2));                  // next: preempt at depth 1
  s.BeginRun(0);
  EXPECT_EQ(s.Pick({0, 1}, 0, true, 0), 0);
  // The second run diverges: other tasks are runnable at depth 1.
  const std::vector<int> enabled = {2, 3};
  const int choice = s.Pick(enabled, 2, true, 1);
  EXPECT_NE(std::find(enabled.begin(), enabled.end(), choice), enabled.end());
  EXPECT_TRUE(s.nondeterministic());
}

TEST(ExhaustiveStrategyTest, DeterministicProgramIsNotFlagged) {
  ExhaustiveStrategy s(1);
  long runs = 0;
  do {
    s.BeginRun(0);
    s.Pick({0, 1}, 0, true, 0);
    s.Pick({0, 1}, 0, true, 1);
    ++runs;
  } while (s.EndRun(2));
  EXPECT_FALSE(s.nondeterministic());
  EXPECT_EQ(runs, 3);  // no preemption, preempt at step 0, preempt at step 1
}

}  // namespace
}  // namespace squashlab
