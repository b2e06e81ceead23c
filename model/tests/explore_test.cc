// SPDX-License-Identifier: GPL-2.0-only
// This file implements the scheduler tests on planted bugs: PCT finds each
// within the runs its bound predicts, exhaustive search counts the known
// interleavings, replay reproduces the identical trace, and minimisation
// needs no more preemptions than the bug does.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "model/kernel/preempt.h"
#include "model/kernel/testing/planted.h"
#include "model/sched/exhaustive_strategy.h"
#include "model/sched/explorer.h"

namespace squashlab {
namespace {

struct Planted {
  Scenario scenario;
  Scenario twin;
  int depth;        // ordering constraints the bug needs
  int preemptions;  // preemptions the bug needs
  ReportKind kind;
};

std::vector<Planted> AllPlanted() {
  using namespace testing;
  return {
      {LostUpdate(false), LostUpdate(true), 2, 1, ReportKind::kAssertion},
      {OrderViolation(false), OrderViolation(true), 1, 0,
       ReportKind::kNullDereference},
      {AtomicityDepth3(false), AtomicityDepth3(true), 3, 2,
       ReportKind::kAssertion},
      {Deadlock(false), Deadlock(true), 2, 1, ReportKind::kHungTask},
  };
}

// PCT's guarantee: probability >= 1/(n k^(d-1)) per run, for n tasks and k
// steps; so n k^(d-1) runs is the expected worst case.
long PctBound(const Scenario& sc, int depth) {
  Explorer e;
  auto s = MakeRandomStrategy();
  RunResult r = e.RunOnce(sc, *s, 1, true);
  long n = static_cast<long>(r.trace.task_names.size());
  return n *
         static_cast<long>(std::pow(static_cast<double>(r.steps), depth - 1));
}

// PCT's bound is on the expected number of runs; over 20 seeds the mean
// runs-to-detection must stay within it (with 25% slack for the sampling
// error of 20 seeds: depth 1 meets its bound exactly, p = 1/n), and every
// single seed within 5x (a miss probability of at most e^-5 at the
// guaranteed rate). Seeds are fixed, so the test is deterministic.
TEST(Explore, PctFindsEachPlantedBugWithinItsBound) {
  for (const Planted& p : AllPlanted()) {
    long bound = PctBound(p.scenario, p.depth);
    double total = 0;
    const int kSeeds = 20;
    for (int seed = 1; seed <= kSeeds; seed++) {
      ExploreOptions opt;
      opt.strategy = "pct";
      opt.pct_depth = p.depth;
      opt.seed = seed;
      opt.max_runs = 5 * bound;
      opt.minimise = false;
      Explorer e;
      ExploreResult r = e.Explore(p.scenario, opt);
      EXPECT_TRUE(r.found) << p.scenario.name << " seed " << seed << ": not in "
                           << opt.max_runs;
      EXPECT_EQ(r.failure.report.kind, p.kind) << p.scenario.name << "\n"
                                               << r.failure.report.ToString();
      total += r.found ? r.first_failing_run + 1 : opt.max_runs;
    }
    double mean = total / kSeeds;
    EXPECT_LE(mean, 1.25 * bound) << p.scenario.name;
    std::printf(
        "%-16s depth %d: PCT bound %ld runs; mean runs to detection %.1f\n",
        p.scenario.name.c_str(), p.depth, bound, mean);
  }
}

TEST(Explore, CorrectTwinsAreSilent) {
  for (const Planted& p : AllPlanted()) {
    for (const char* strategy : {"pct", "random"}) {
      ExploreOptions opt;
      opt.strategy = strategy;
      opt.max_runs = 300;
      Explorer e;
      ExploreResult r = e.Explore(p.twin, opt);
      EXPECT_FALSE(r.found) << p.twin.name << " " << strategy << "\n"
                            << Explorer::FormatFailure(p.twin, r);
      EXPECT_EQ(r.runs, 300);
    }
    ExploreOptions ex;
    ex.strategy = "exhaustive";
    ex.preemption_bound = 2;
    ex.max_runs = 100000;
    Explorer e;
    ExploreResult r = e.Explore(p.twin, ex);
    EXPECT_FALSE(r.found) << Explorer::FormatFailure(p.twin, r);
    EXPECT_TRUE(r.exhausted) << p.twin.name << " after " << r.runs;
  }
}

TEST(Explore, ExhaustiveFindsEachBugAtItsPreemptionBound) {
  for (const Planted& p : AllPlanted()) {
    ExploreOptions opt;
    opt.strategy = "exhaustive";
    opt.preemption_bound = p.preemptions;
    opt.max_runs = 100000;
    opt.minimise = false;
    Explorer e;
    EXPECT_TRUE(e.Explore(p.scenario, opt).found) << p.scenario.name;
    if (p.preemptions == 0) continue;
    opt.preemption_bound = p.preemptions - 1;
    ExploreResult below = e.Explore(p.scenario, opt);
    EXPECT_FALSE(below.found) << p.scenario.name << " needs " << p.preemptions;
    EXPECT_TRUE(below.exhausted);
  }
}

long Exhaust(const Scenario& sc, int bound) {
  ExhaustiveStrategy ex(bound);
  Explorer e;
  for (;;) {
    RunResult r = e.RunOnce(sc, ex, 1, false);
    EXPECT_FALSE(r.failed());
    if (!r.more) break;
  }
  EXPECT_FALSE(ex.nondeterministic());
  return ex.schedules();
}

TEST(Explore, ExhaustiveEnumeratesTheKnownNumberOfInterleavings) {
  // 2 tasks x 3 units: C(6,3) = 20.  3 tasks x 2 units: 6!/(2!2!2!) = 90.
  EXPECT_EQ(Exhaust(testing::Interleavings(2, 2), -1), 20);
  EXPECT_EQ(Exhaust(testing::Interleavings(3, 1), -1), 90);
  // 2 tasks x 4 units: C(8,4) = 70.
  EXPECT_EQ(Exhaust(testing::Interleavings(2, 3), -1), 70);
  // No preemption: only the order in which tasks start matters.
  EXPECT_EQ(Exhaust(testing::Interleavings(2, 2), 0), 2);
  EXPECT_EQ(Exhaust(testing::Interleavings(3, 1), 0), 6);
  // One preemption, 2 tasks of n = 3 units: per first task, no switch, or
  // a switch after unit 1 or 2 with the second task then running to its
  // end (switching back would be a second preemption): 2 * 3 = 6.
  EXPECT_EQ(Exhaust(testing::Interleavings(2, 2), 1), 6);
  // Two preemptions add: switch after unit i in {1,2}, run j in {1,2} units
  // of the second, back to the first: 4 more per first task: 2 * 7 = 14.
  EXPECT_EQ(Exhaust(testing::Interleavings(2, 2), 2), 14);
}

TEST(Explore, ReplayTokenReproducesTheIdenticalTrace) {
  for (const Planted& p : AllPlanted()) {
    ExploreOptions opt;
    opt.strategy = "random";
    opt.seed = 3;
    opt.max_runs = 5000;
    opt.minimise = false;
    Explorer e;
    ExploreResult r = e.Explore(p.scenario, opt);
    ASSERT_TRUE(r.found) << p.scenario.name;
    std::string text = r.failure.Token(p.scenario.name).ToString();
    StatusOr<ReplayToken> token = ReplayToken::Parse(text);
    ASSERT_TRUE(token.ok()) << token.status().ToString();
    EXPECT_EQ(token->ToString(), text);
    RunResult again = e.Replay(p.scenario, *token);
    EXPECT_FALSE(again.diverged);
    EXPECT_TRUE(again.report.SameAs(r.failure.report))
        << again.report.ToString();
    EXPECT_EQ(again.report.body, r.failure.report.body);
    EXPECT_TRUE(again.trace == r.failure.trace) << p.scenario.name;
    EXPECT_GT(again.trace.events.size(), 3u);
  }
}

TEST(Explore, MinimisedScheduleNeedsNoMorePreemptionsThanTheBug) {
  for (const Planted& p : AllPlanted()) {
    ExploreOptions opt;
    opt.strategy = "random";
    opt.seed = 11;
    opt.max_runs = 5000;
    Explorer e;
    ExploreResult r = e.Explore(p.scenario, opt);
    ASSERT_TRUE(r.found) << p.scenario.name;
    EXPECT_TRUE(r.minimised.report.SameAs(r.failure.report))
        << r.minimised.report.ToString();
    EXPECT_LE(r.minimised.preemptions, p.preemptions)
        << Explorer::FormatFailure(p.scenario, r);
    EXPECT_LE(r.minimised.steps, r.failure.steps);
  }
}

TEST(Explore, FailureListingAndChromeTrace) {
  ExploreOptions opt;
  opt.strategy = "pct";
  opt.pct_depth = 2;
  opt.max_runs = 1000;
  Explorer e;
  Scenario sc = testing::Deadlock(false);
  ExploreResult r = e.Explore(sc, opt);
  ASSERT_TRUE(r.found);
  std::string text = Explorer::FormatFailure(sc, r);
  EXPECT_NE(text.find("INFO: task"), std::string::npos) << text;
  EXPECT_NE(text.find("replay token: sq1:pct2:"), std::string::npos) << text;
  EXPECT_NE(text.find("mutex_lock"), std::string::npos) << text;
  const char* tmp = std::getenv("TEST_TMPDIR");
  std::string path = std::string(tmp ? tmp : "/tmp") + "/deadlock.json";
  ASSERT_TRUE(WriteChromeTrace(path, r.minimised.trace, r.minimised.report));
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  std::string json = ss.str();
  EXPECT_EQ(json.rfind("{\"displayTimeUnit\"", 0), 0u);
  EXPECT_NE(json.find("\"ph\":\"X\""), std::string::npos);
  EXPECT_NE(json.find("\"ph\":\"i\""), std::string::npos);
  EXPECT_NE(json.find("blocked for more than 120 seconds"), std::string::npos);
}

// Two tasks increment a shared counter inside get_cpu_ptr sections: on one
// CPU the sections exclude each other (no schedule loses an update); on two
// CPUs they do not.
Scenario PercpuIncrement(int cpu_of_second) {
  return Scenario{"percpu_increment", {}, [=](Kernel& k) {
                    struct State {
                      percpu<int>* slots;
                      int shared = 0;
                    };
                    State* st = k.New<State>();
                    st->slots = alloc_percpu<int>();
                    for (int t = 0; t < 2; t++) {
                      k.Spawn(TaskSpec{"dd", TaskContext::kProcess,
                                       t == 0 ? 0 : cpu_of_second, 0, 0, [st] {
                                         int* mine = get_cpu_ptr(st->slots);
                                         int v = st->shared;
                                         model_point("between read and write");
                                         st->shared = v + 1;
                                         (*mine)++;
                                         put_cpu_ptr(mine);
                                       }});
                    }
                    k.AtQuiescence([st] { BUG_ON(st->shared != 2); });
                  }};
}

TEST(Explore, NonPreemptibleSectionsGateTheirCpu) {
  ExploreOptions opt;
  opt.strategy = "exhaustive";
  opt.preemption_bound = -1;
  opt.max_runs = 100000;
  opt.minimise = false;
  Explorer e;
  ExploreResult same_cpu = e.Explore(PercpuIncrement(0), opt);
  EXPECT_FALSE(same_cpu.found)
      << Explorer::FormatFailure(PercpuIncrement(0), same_cpu);
  EXPECT_TRUE(same_cpu.exhausted);
  EXPECT_TRUE(e.Explore(PercpuIncrement(1), opt).found);
}

TEST(ReplayToken, RejectsMalformedTokens) {
  EXPECT_FALSE(ReplayToken::Parse("sq2:pct:1:x:0").ok());
  EXPECT_FALSE(ReplayToken::Parse("sq1:pct:abc:x:0").ok());
  EXPECT_FALSE(ReplayToken::Parse("sq1:pct:1:x:0x0").ok());
  EXPECT_FALSE(ReplayToken::Parse("sq1:pct:1:x").ok());
  StatusOr<ReplayToken> t =
      ReplayToken::Parse("sq1:pct3:42:deadlock:0x3.1.0x2");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->choices, (std::vector<int>{0, 0, 0, 1, 0, 0}));
  // A token that does not fit the scenario is replayed as far as it goes
  // and flagged.
  t->choices.assign(500, 1);
  Explorer e;
  EXPECT_TRUE(e.Replay(testing::Deadlock(false), *t).diverged);
}

}  // namespace
}  // namespace squashlab
