// SPDX-License-Identifier: GPL-2.0-only
// Tests of ExhaustiveStrategy driven directly: a run that diverges from the
// recorded prefix must never be handed a task that cannot run; partial-order
// reduction keeps every order of conflicting steps the full search reaches.
#include "model/sched/exhaustive_strategy.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string_view>
#include <utility>
#include <vector>

#include "model/kernel/api_footprints.h"

namespace squashlab {
namespace {

TEST(ExhaustiveStrategyTest, DivergingRunGetsARunnableChoiceAndIsFlagged) {
  ExhaustiveStrategy s(/*preemption_bound=*/2);
  s.BeginRun(0);
  EXPECT_EQ(s.Pick({0, 1}, 0, true, 0), 0);  // non-preemptive default first
  EXPECT_EQ(s.Pick({0, 1}, 0, true, 1), 0);
  ASSERT_TRUE(s.EndRun(2));  // next: preempt at depth 1
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

// `cpus`: each task's CPU (default: all on CPU 0); a "preempt_disable" step
// reports that it gates its CPU's other process-context tasks.
Outcome Explore(const Program& prog, int bound, bool por,
                std::vector<int> cpus = {}) {
  cpus.resize(prog.size(), 0);
  ExhaustiveStrategy s(bound, por, por);
  s.set_footprint([](const StepInfo& step) { return FootprintOf(step); });
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
      bool cur_enabled =
          std::find(enabled.begin(), enabled.end(), current) != enabled.end();
      int pick = enabled.size() > 1 ? s.Pick(enabled, current, cur_enabled, 0)
                                    : enabled[0];
      StepInfo info;
      info.task = pick;
      info.op = prog[pick][pc[pick]].first;
      info.arg = prog[pick][pc[pick]].second;
      info.stopped = ++pc[pick] == prog[pick].size();
      info.cpu = cpus[pick];
      if (std::string_view(info.op) == "preempt_disable")
        info.gates_more = StepInfo::kGatesPreemption;
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
          if (done[i].first != done[j].first &&
              Conflict(done[i].second, done[j].second))
            trace.push_back(((done[i].first * 10 + index[i]) * 100) +
                            done[j].first * 10 + index[j]);
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
      {{"PageUptodate", 1},
       {"SetPageUptodate", 7},
       {"kmalloc", 64},
       {"put_page", 1}},
      {{"PageUptodate", 2},
       {"kmalloc", 16},
       {"PageUptodate", 7},
       {"get_bh", 3}},
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
  EXPECT_EQ(Explore(prog, 2, false).complete,
            6);  // all C(4,2) orders fit in bound 2
  // One complete run per pass of iterative bounding (bounds 0, 1, 2).
  Outcome reduced = Explore(prog, 2, true);
  EXPECT_EQ(reduced.traces.size(), 1u);
  EXPECT_EQ(reduced.complete, 3);
}
StepFootprint Fp(const char* op, uint64_t arg, bool slab_reuses = true) {
  StepInfo info;
  info.op = op;
  info.arg = arg;
  return FootprintOf(info, false, slab_reuses);
}

TEST(FootprintTest, FlagsConflictBitByBitAndReadsCommute) {
  EXPECT_FALSE(Conflict(Fp("PageUptodate", 7), Fp("PageUptodate", 7)));
  EXPECT_TRUE(Conflict(Fp("PageUptodate", 7), Fp("SetPageUptodate", 7)));
  EXPECT_FALSE(Conflict(Fp("PageUptodate", 7), Fp("SetPageUptodate", 8)));
  EXPECT_TRUE(Conflict(Fp("SetPageUptodate", 7),
                       Fp("unlock_page", 7)));  // checks PG_locked
  EXPECT_FALSE(Conflict(Fp("PageError", 7), Fp("unlock_page", 7)));
  EXPECT_FALSE(Conflict(Fp("trylock_buffer", 3), Fp("set_buffer_uptodate", 3)));
  EXPECT_TRUE(Conflict(Fp("trylock_buffer", 3), Fp("unlock_buffer", 3)));
  EXPECT_TRUE(Conflict(Fp("wait_on_buffer", 3), Fp("unlock_buffer", 3)));
  EXPECT_FALSE(Conflict(Fp("wait_on_buffer", 3), Fp("buffer_uptodate", 3)));
  EXPECT_TRUE(Conflict(Fp("submit_bh", 3),
                       Fp("buffer_uptodate", 3)));  // the whole buffer
  EXPECT_FALSE(Conflict(Fp("flush_dcache_page", 7), Fp("SetPageUptodate", 7)));
}

TEST(FootprintTest, ReferenceGetsCommuteAndPutsCommuteButNotWithEachOther) {
  EXPECT_FALSE(Conflict(Fp("get_page", 7), Fp("get_page", 7)));
  EXPECT_FALSE(Conflict(Fp("put_page", 7), Fp("put_page", 7)));
  EXPECT_TRUE(Conflict(Fp("get_page", 7), Fp("put_page", 7)));
  EXPECT_TRUE(Conflict(Fp("page_count", 7), Fp("put_page", 7)));
  EXPECT_FALSE(Conflict(Fp("page_count", 7), Fp("page_count", 7)));
  EXPECT_FALSE(Conflict(Fp("put_page", 7), Fp("PageUptodate", 7)));
  EXPECT_FALSE(Conflict(Fp("__getblk", 3), Fp("get_bh", 3)));
  EXPECT_TRUE(Conflict(Fp("__getblk", 3), Fp("put_bh", 3)));
  EXPECT_TRUE(Conflict(Fp("__brelse", 3), Fp("get_bh", 3)));
  EXPECT_TRUE(
      Conflict(Fp("submit_bh", 3), Fp("get_bh", 3)));  // the whole buffer
}

// __getblk reads and reorders its CPU's buffer_head LRU (and may evict
// from it): two of them conflict on one CPU, whatever their blocks, and
// commute on two CPUs unless they name one buffer's count in conflict.
TEST(FootprintTest, GetblkTouchesItsCpusBufferLru) {
  auto on_cpu = [](const char* op, uint64_t block, int cpu) {
    StepInfo info;
    info.op = op;
    info.arg = block;
    info.cpu = cpu;
    return FootprintOf(info, false, true);
  };
  EXPECT_TRUE(Conflict(on_cpu("__getblk", 3, 0), on_cpu("__getblk", 4, 0)));
  EXPECT_FALSE(Conflict(on_cpu("__getblk", 3, 0), on_cpu("__getblk", 4, 1)));
  EXPECT_FALSE(Conflict(on_cpu("__getblk", 3, 0), on_cpu("__getblk", 3, 1)));
  EXPECT_FALSE(Conflict(on_cpu("__getblk", 3, 0), on_cpu("get_bh", 4, 0)));
  EXPECT_TRUE(Conflict(on_cpu("__getblk", 3, 1), on_cpu("__brelse", 3, 0)));
}

TEST(FootprintTest, AWideStepTouchesEverything) {
  StepInfo last_put;
  last_put.op = "put_page";
  last_put.arg = 7;
  last_put.wide = true;  // the page went back to the allocator
  EXPECT_TRUE(Conflict(FootprintOf(last_put), Fp("PageUptodate", 7)));
  EXPECT_TRUE(Conflict(FootprintOf(last_put), Fp("put_page", 7)));
  EXPECT_TRUE(Conflict(FootprintOf(last_put), Fp("buffer_uptodate", 3)));
}

TEST(FootprintTest, SlabCachesAndWorkItems) {
  EXPECT_TRUE(Conflict(Fp("kmalloc", 64), Fp("kfree", 64)));
  EXPECT_FALSE(Conflict(Fp("kmalloc", 64), Fp("kfree", 16)));
  EXPECT_TRUE(Conflict(Fp("kmalloc", 64),
                       Fp("kfree", 0)));  // unknown object: every cache
  EXPECT_FALSE(Conflict(Fp("kmalloc", 64, false),
                        Fp("kfree", 64, false)));  // quarantine
  EXPECT_FALSE(Conflict(Fp("kfree", 64, false), Fp("kfree", 16, false)));
  EXPECT_TRUE(Conflict(Fp("kfree", 64, false),
                       Fp("process_one_work", 5)));  // debugobjects
  EXPECT_TRUE(Conflict(Fp("queue_work", 5), Fp("process_one_work", 5)));
  EXPECT_FALSE(Conflict(Fp("queue_work", 5), Fp("process_one_work", 6)));
  StepInfo end;  // a kworker's last step ends its item: the whole table
  end.op = "kfree";
  end.arg = 64;
  end.context = TaskContext::kWorkqueue;
  end.stopped = end.finished = true;
  EXPECT_TRUE(Conflict(FootprintOf(end, false, false), Fp("queue_work", 9)));
}

TEST(ExhaustiveStrategyTest, TurningPreemptionOffGatesOnlyItsOwnCpu) {
  // Task 0 turns preemption off; task 1 touches other state. On another
  // CPU, a preemption before preempt_disable is useless (task 1 could have
  // run beside it); on the same CPU it is not (task 1 could not have).
  const Program prog = {
      {{"PageUptodate", 1}, {"preempt_disable", 0}, {"PageUptodate", 1}},
      {{"PageUptodate", 2}, {"PageUptodate", 2}}};
  Outcome apart = Explore(prog, 2, true, {0, 1});
  Outcome together = Explore(prog, 2, true, {0, 0});
  EXPECT_LT(apart.complete, together.complete);
  EXPECT_EQ(apart.traces, Explore(prog, 2, false, {0, 1}).traces);
}
}  // namespace
}  // namespace squashlab
