// Tests of ExhaustiveStrategy driven directly: a run that diverges from the
// recorded prefix must never be handed a task that cannot run; partial-order
// reduction keeps every order of conflicting steps the full search reaches.
#include "model/exhaustive_strategy.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

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


// A program for the strategy alone: each task is a list of (op, arg) steps,
// run without an executor; a task is stopped after its last step.
using Program = std::vector<std::vector<std::pair<const char*, uint64_t>>>;

struct Outcome {
  long complete = 0;
  // Per complete run: the order in which conflicting steps of different
  // tasks ran (its Mazurkiewicz trace, as far as the footprints see).
  std::set<std::vector<int>> traces;
};

Outcome Explore(const Program& prog, int bound, bool por) {
  ExhaustiveStrategy s(bound, por, por);
  Outcome out;
  bool more = true;
  while (more) {
    s.BeginRun(0);
    std::vector<size_t> pc(prog.size(), 0);
    std::vector<std::pair<int, StepFootprint>> done;
    std::vector<int> index;  // each done step's index in its task
    int current = -1;
    bool abandoned = false;
    for (;;) {
      std::vector<int> enabled;
      for (size_t t = 0; t < prog.size(); t++)
        if (pc[t] < prog[t].size()) enabled.push_back(static_cast<int>(t));
      if (enabled.empty()) break;
      bool cur_enabled = std::find(enabled.begin(), enabled.end(), current) != enabled.end();
      int pick = enabled.size() > 1 ? s.Pick(enabled, current, cur_enabled, 0) : enabled[0];
      StepInfo info;
      info.task = pick;
      info.op = prog[pick][pc[pick]].first;
      info.arg = prog[pick][pc[pick]].second;
      info.stopped = ++pc[pick] == prog[pick].size();
      done.push_back({pick, FootprintOf(info)});
      index.push_back(static_cast<int>(pc[pick]));
      current = pick;
      if (!s.OnStep(info)) {
        abandoned = true;
        break;
      }
    }
    if (!abandoned) {
      out.complete++;
      std::vector<int> trace;  // "step a ran before step b", sorted
      for (size_t i = 0; i < done.size(); i++)
        for (size_t j = i + 1; j < done.size(); j++)
          if (done[i].first != done[j].first && Conflict(done[i].second, done[j].second))
            trace.push_back(((done[i].first * 10 + index[i]) * 100) + done[j].first * 10 + index[j]);
      std::sort(trace.begin(), trace.end());
      out.traces.insert(trace);
    }
    more = s.EndRun(0);
  }
  return out;
}

TEST(ExhaustiveStrategyTest, ReductionKeepsEveryOrderOfConflictingSteps) {
  // Three tasks: private pages, one shared page, the slab, a shared buffer.
  const Program prog = {
      {{"PageUptodate", 1}, {"SetPageUptodate", 7}, {"kmalloc", 64}, {"put_page", 1}},
      {{"PageUptodate", 2}, {"kmalloc", 16}, {"PageUptodate", 7}, {"get_bh", 3}},
      {{"get_bh", 3}, {"PageUptodate", 4}, {"put_bh", 3}},
  };
  for (int bound : {0, 1, 2}) {
    Outcome full = Explore(prog, bound, false);
    Outcome reduced = Explore(prog, bound, true);
    EXPECT_EQ(reduced.traces, full.traces) << "bound " << bound;
    EXPECT_LT(reduced.complete, full.complete) << "bound " << bound;
  }
}

TEST(ExhaustiveStrategyTest, IndependentTasksRunOncePerPass) {
  const Program prog = {{{"PageUptodate", 1}, {"PageUptodate", 1}},
                        {{"PageUptodate", 2}, {"PageUptodate", 2}}};
  EXPECT_EQ(Explore(prog, 2, false).complete, 6);  // all C(4,2) orders fit in bound 2
  // One complete run per pass of iterative bounding (bounds 0, 1, 2).
  Outcome reduced = Explore(prog, 2, true);
  EXPECT_EQ(reduced.traces.size(), 1u);
  EXPECT_EQ(reduced.complete, 3);
}
}  // namespace
}  // namespace squashlab
