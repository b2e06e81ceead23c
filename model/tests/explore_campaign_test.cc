// SPDX-License-Identifier: GPL-2.0-only
// This file implements a sharded race campaign: the correct twins of the
// planted bugs explored under PCT and random across Bazel test shards
// (TEST_TOTAL_SHARDS / TEST_SHARD_INDEX / TEST_SHARD_STATUS_FILE); every
// shard takes its share of the runs, and none may find a violation. The
// planted bugs themselves must still be found within the same budget.
#include <gtest/gtest.h>

#include <cstdlib>

#include "model/kernel/testing/planted.h"
#include "model/sched/explorer.h"

namespace squashlab {
namespace {

constexpr long kRuns = 4000;

long ExpectedShare(const Shard& s, long runs) {
  return runs / s.total + (s.index < runs % s.total ? 1 : 0);
}

TEST(Campaign, CorrectTwinsStayCleanAcrossShards) {
  Shard shard = ShardFromEnv();
  for (auto make : {testing::LostUpdate, testing::OrderViolation,
                    testing::AtomicityDepth3, testing::Deadlock}) {
    for (const char* strategy : {"pct", "random"}) {
      Scenario sc = make(true, 3);
      ExploreOptions opt;
      opt.strategy = strategy;
      opt.max_runs = kRuns;
      opt.seed = 2026;
      opt = ExploreOptionsFromEnv(opt);  // SQUASHLAB_SEED etc. widen a campaign
      opt.strategy = strategy;
      EXPECT_EQ(opt.shard.index, shard.index);
      Explorer e;
      ExploreResult r = e.Explore(sc, opt);
      EXPECT_FALSE(r.found) << Explorer::FormatFailure(sc, r);
      EXPECT_EQ(r.runs, ExpectedShare(shard, opt.max_runs)) << sc.name;
    }
  }
}

TEST(Campaign, BuggyProgramsAreFoundInEveryShard) {
  Shard shard = ShardFromEnv();
  for (auto make : {testing::LostUpdate, testing::OrderViolation,
                    testing::AtomicityDepth3, testing::Deadlock}) {
    Scenario sc = make(false, 3);
    ExploreOptions opt;
    opt.strategy = "pct";
    opt.max_runs = kRuns;
    opt.seed = 2026;
    opt.shard = shard;
    opt.minimise = false;
    Explorer e;
    ExploreResult r = e.Explore(sc, opt);
    EXPECT_TRUE(r.found) << sc.name << " in shard " << shard.index << "/"
                         << shard.total;
    if (r.found) {
      EXPECT_TRUE(shard.Owns(r.first_failing_run));
    }
  }
}

}  // namespace
}  // namespace squashlab

// The shards split runs, not test cases: every shard runs every TEST with
// its share of the seeds, so gtest's own sharding is turned off here.
int main(int argc, char** argv) {
  unsetenv("GTEST_TOTAL_SHARDS");
  unsetenv("GTEST_SHARD_INDEX");
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
