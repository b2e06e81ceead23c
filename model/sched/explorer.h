// SPDX-License-Identifier: GPL-2.0-only
// This file implements Explorer: it runs a RunSpec many times under the
// explore executor with a strategy (random, pct, exhaustive), stops at the
// first report, minimises the failing schedule, and replays tokens.
#ifndef SQUASHLAB_MODEL_SCHED_EXPLORER_H_
#define SQUASHLAB_MODEL_SCHED_EXPLORER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "model/base/report.h"
#include "model/sched/explore_executor.h"
#include "model/sched/replay_token.h"
#include "model/sched/run_spec.h"
#include "model/sched/schedule_trace.h"
#include "model/sched/shard.h"
#include "model/sched/strategy.h"

namespace squashlab {

struct RunResult {
  Report report;                // the first report, or the one Focus chose
  std::vector<Report> reports;  // every report of the run, in order
  bool completed = false;       // reached quiescence and passed every check
  bool more = true;             // the strategy has more schedules to try
  bool diverged = false;        // Replay: the token's choices did not fit
  bool pruned = false;  // abandoned by partial-order reduction (no verdict)
  // The run belongs to this part of a partitioned search
  // (Strategy::RunOwned); one that does not counts nowhere.
  bool owned = true;
  long steps = 0;
  int preemptions = 0;
  long switches = 0;
  uint64_t seed = 0;
  std::string strategy;
  std::vector<int> choices;
  ScheduleTrace trace;  // when recorded
  bool failed() const { return !report.empty(); }
  // Makes the run's report of the same class as `want` (kind and title)
  // the one it stands for; false if the run has none. A run goes on after
  // warnings, so the class chased may follow another report.
  bool Focus(const Report& want) {
    for (const Report& r : reports) {
      if (!r.SameAs(want)) continue;
      report = r;
      return true;
    }
    return report.SameAs(want) && !report.empty();
  }
  ReplayToken Token(const std::string& scenario) const {
    return ReplayToken{strategy, seed, scenario, choices};
  }
};

struct ExploreOptions {
  std::string strategy = "pct";  // "pct", "random", "exhaustive"
  int pct_depth = 3;
  long pct_steps = 0;        // 0: learn the run length
  int preemption_bound = 2;  // exhaustive; negative = unbounded
  bool por = false;          // exhaustive: partial-order reduction
  bool iterative = false;    // exhaustive: bound 0, then 1, ... (CHESS)
  uint64_t seed = 1;
  long max_runs = 1000;
  double max_seconds = 0;  // 0: no time limit
  bool minimise = true;
  long minimise_budget = 2000;  // runs
  Shard shard{};
};

struct ExploreResult {
  long runs = 0;
  long pruned = 0;  // of the runs, abandoned as equivalent
  long switches = 0;
  bool exhausted = false;  // exhaustive finished its space
  bool found = false;
  int first_failing_run = -1;
  RunResult failure;    // as found, with trace
  RunResult minimised;  // with trace (== failure when not minimised)
  double seconds = 0;
};

class Explorer {
 public:
  Explorer() = default;

  // One run of `sc` under `strategy` (BeginRun/EndRun included);
  // `fingerprint`: see RunScenario.
  RunResult RunOnce(const RunSpec& sc, Strategy& strategy, uint64_t seed,
                    bool trace, uint64_t* fingerprint = nullptr);
  ExploreResult Explore(const RunSpec& sc, const ExploreOptions& opt);
  // Replays a token's choices with its seed.
  RunResult Replay(const RunSpec& sc, const ReplayToken& token,
                   bool trace = true);
  // Fewest preemptions first (bounded exhaustive search below the failing
  // count), then fewest steps (greedy truncation), keeping the same report.
  RunResult Minimise(const RunSpec& sc, const RunResult& failing, long budget);
  // The failure as squashlab prints it: report, scenario, seed, token,
  // minimised schedule.
  static std::string FormatFailure(const RunSpec& sc, const ExploreResult& r);

 private:
  bool FewerPreemptions(const RunSpec& sc, RunResult* best, long* budget);
  bool ShorterPrefix(const RunSpec& sc, RunResult* best, long* budget);

  ExploreExecutor exec_;
};

// The strategy `opt` names; an exhaustive one reduces with `footprint`.
std::unique_ptr<Strategy> MakeStrategy(const ExploreOptions& opt,
                                       const FootprintFn& footprint = {});

// `base` overridden by the environment, for campaigns: SQUASHLAB_STRATEGY,
// SQUASHLAB_SEED, SQUASHLAB_RUNS, SQUASHLAB_SECONDS, SQUASHLAB_PCT_DEPTH,
// SQUASHLAB_PREEMPTION_BOUND, SQUASHLAB_POR (0/1), and Bazel's
// TEST_TOTAL_SHARDS / TEST_SHARD_INDEX (see shard.h).
ExploreOptions ExploreOptionsFromEnv(ExploreOptions base);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_SCHED_EXPLORER_H_
