// SPDX-License-Identifier: GPL-2.0-only
// Tests of the partitioned exhaustive search on the planted programs: for
// any number of parts, the parts together run exactly the schedules of the
// whole search, each once, with and without partial-order reduction, and
// the planned cut gives every part subtrees to search.
#include "model/sched/dfs_partition.h"

#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "model/kernel/testing/planted.h"
#include "model/sched/exhaustive_strategy.h"
#include "model/sched/partition_plan.h"

namespace squashlab {
namespace {

struct Walk {
  long runs = 0, pruned = 0, subtrees = 0;
  // Each run this part owns, by its choices, with how often it ran.
  std::map<std::vector<int>, int> schedules;
};

std::unique_ptr<ExhaustiveStrategy> Make(const RunSpec& spec, int bound,
                                         bool por) {
  auto s = std::make_unique<ExhaustiveStrategy>(bound, por, por);
  s->set_footprint(spec.footprint);
  return s;
}

Walk Search(const RunSpec& spec, int bound, bool por, DfsPartition part) {
  auto s = Make(spec, bound, por);
  s->set_partition(std::move(part));
  Explorer e;
  Walk w;
  for (;;) {
    RunResult r = e.RunOnce(spec, *s, 1, false);
    if (r.owned) {
      w.runs++;
      w.pruned += r.pruned ? 1 : 0;
      if (!r.pruned) w.schedules[r.choices]++;
    }
    if (!r.more) break;
  }
  EXPECT_FALSE(s->nondeterministic());
  EXPECT_EQ(s->schedules(), w.runs);
  EXPECT_EQ(s->pruned(), w.pruned);
  w.subtrees = s->subtrees();
  return w;
}

TEST(DfsPartition, PartsTogetherRunExactlyTheWholeSearch) {
  struct Case {
    RunSpec spec;
    int bound;
    bool por;
  };
  const std::vector<Case> cases = {
      {testing::Interleavings(2, 3), -1, false},
      {testing::Interleavings(3, 1), 2, false},
      {testing::LostUpdate(true), 2, true},
      {testing::AtomicityDepth3(true), 2, true},
      {testing::Deadlock(true), 3, true},
  };
  for (const Case& c : cases) {
    const Walk whole = Search(c.spec, c.bound, c.por, DfsPartition{});
    ASSERT_GT(whole.runs, 1) << c.spec.name;
    for (int total : {1, 2, 3, 7}) {
      Explorer e;
      const int cut = PlanCut(
          e, c.spec, [&] { return Make(c.spec, c.bound, c.por); }, 1,
          kSubtreesPerPart * total);
      Walk sum;
      for (int index = 0; index < total; index++) {
        DfsPartition part;
        part.cut = cut;
        part.total = total;
        part.index = index;
        const Walk w = Search(c.spec, c.bound, c.por, part);
        sum.runs += w.runs;
        sum.pruned += w.pruned;
        for (const auto& [choices, n] : w.schedules)
          sum.schedules[choices] += n;
        // Every part meets every subtree (and searches its own).
        if (index == 0) sum.subtrees = w.subtrees;
        EXPECT_EQ(w.subtrees, sum.subtrees) << c.spec.name;
      }
      EXPECT_EQ(sum.runs, whole.runs) << c.spec.name << " in " << total;
      EXPECT_EQ(sum.pruned, whole.pruned) << c.spec.name << " in " << total;
      EXPECT_EQ(sum.schedules, whole.schedules)
          << c.spec.name << " in " << total;
    }
  }
}

TEST(DfsPartition, PlannedCutHasEnoughSubtrees) {
  const RunSpec spec = testing::Interleavings(2, 3);  // 70 schedules
  auto make = [&] { return Make(spec, -1, false); };
  Explorer e;
  const int cut = PlanCut(e, spec, make, 1, 16);
  DfsPartition look;
  look.cut = cut;
  look.index = -1;
  auto s = make();
  s->set_partition(look);
  while (e.RunOnce(spec, *s, 1, false).more) {
  }
  EXPECT_GE(s->subtrees(), 16);
  EXPECT_LT(s->subtrees(), 70);  // cut above the leaves
  // One level shallower has too few.
  if (cut > 1) {
    look.cut = cut - 1;
    auto t = make();
    t->set_partition(look);
    while (e.RunOnce(spec, *t, 1, false).more) {
    }
    EXPECT_LT(t->subtrees(), 16);
  }
}

TEST(DfsPartition, FinishedSubtreesAreLeftOut) {
  const RunSpec spec = testing::Interleavings(3, 1);  // 90 schedules
  DfsPartition part;
  part.cut = 2;
  const Walk whole = Search(spec, -1, false, part);
  part.done = [](long subtree) { return subtree % 2 == 0; };
  const Walk odd = Search(spec, -1, false, part);
  part.done = [](long subtree) { return subtree % 2 == 1; };
  const Walk even = Search(spec, -1, false, part);
  EXPECT_GT(odd.runs, 0);
  EXPECT_GT(even.runs, 0);
  EXPECT_EQ(odd.runs + even.runs, whole.runs);
}

}  // namespace
}  // namespace squashlab
