// SPDX-License-Identifier: GPL-2.0-only
// This file implements the tests of the explore executor's fast paths: a
// task that reaches its point makes the scheduler's next decision itself,
// goes on without a switch when it is picked again, and hands its CPU to
// the next task directly otherwise. A traced run takes neither path (every
// step goes through the scheduler's loop), so traced and untraced runs of
// the same seeds must give the same schedules, reports and counts.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "model/base/rng.h"
#include "model/kernel/filemap.h"
#include "model/kernel/testing/planted.h"
#include "model/sched/explorer.h"

namespace squashlab {
namespace {

using testing::Proc;

// Three readers contend for a mutex and share page-cache pages: tasks
// block, wake and finish at different times; one spawns a latecomer.
Scenario Contended() {
  return Scenario{"contended", {}, [](Kernel& k) {
                    struct State {
                      address_space* mapping;
                      mutex m;
                      int counter = 0;
                    };
                    State* st = k.New<State>();
                    st->mapping = new_address_space("file");
                    mutex_init(&st->m);
                    auto reader = [st](int t, int rounds) {
                      for (int i = 0; i < rounds; i++) {
                        page* p = find_get_page(st->mapping, t % 2);
                        if (p == nullptr) {
                          p = page_cache_alloc(st->mapping);
                          if (add_to_page_cache_lru(p, st->mapping, t % 2,
                                                    GFP_KERNEL) == 0) {
                            SetPageUptodate(p);
                            unlock_page(p);
                          }
                        }
                        mutex_lock(&st->m);
                        WRITE_ONCE(st->counter, READ_ONCE(st->counter) + 1);
                        mutex_unlock(&st->m);
                        put_page(p);
                      }
                    };
                    for (int t = 0; t < 3; t++)
                      k.Spawn(Proc("dd", [=, &k] {
                        reader(t, 3 + t);
                        if (t == 0)
                          k.Spawn(Proc("late", [=] { reader(3, 2); }));
                      }));
                  }};
}

struct Case {
  const char* strategy;
  Scenario scenario;
};

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (const char* strategy : {"random", "pct"}) {
    cases.push_back({strategy, Contended()});
    cases.push_back({strategy, testing::LostUpdate(false)});
    cases.push_back({strategy, testing::OrderViolation(false)});
    cases.push_back({strategy, testing::AtomicityDepth3(false)});
    cases.push_back({strategy, testing::Deadlock(false)});
  }
  return cases;
}

TEST(StepPathsTest, UntracedRunsScheduleAsTracedOnes) {
  long steps = 0, untraced_switches = 0, traced_switches = 0;
  for (const Case& c : Cases()) {
    SCOPED_TRACE(std::string(c.strategy) + " " + c.scenario.name);
    const RunSpec spec = c.scenario;
    ExploreOptions opt;
    opt.strategy = c.strategy;
    // One strategy each: PCT learns the run length from the runs it sees.
    std::unique_ptr<Strategy> sa = MakeStrategy(opt), sb = MakeStrategy(opt);
    Explorer fast, slow;
    for (int run = 0; run < 150; run++) {
      const uint64_t seed = Rng::Mix(7, run);
      RunResult a = fast.RunOnce(spec, *sa, seed, false);
      RunResult b = slow.RunOnce(spec, *sb, seed, true);
      ASSERT_EQ(a.choices, b.choices) << "seed " << seed;
      ASSERT_EQ(a.steps, b.steps) << "seed " << seed;
      ASSERT_EQ(a.preemptions, b.preemptions) << "seed " << seed;
      ASSERT_EQ(a.completed, b.completed) << "seed " << seed;
      ASSERT_EQ(a.report.title, b.report.title) << "seed " << seed;
      ASSERT_EQ(a.reports.size(), b.reports.size()) << "seed " << seed;
      ASSERT_EQ(b.switches, b.steps) << "a traced step is one switch";
      steps += a.steps;
      untraced_switches += a.switches;
      traced_switches += b.switches;
    }
  }
  // The fast paths ran: far fewer fiber switches than steps untraced.
  EXPECT_EQ(traced_switches, steps);
  EXPECT_LT(untraced_switches, steps * 3 / 4);
}

}  // namespace
}  // namespace squashlab
