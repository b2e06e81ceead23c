// SPDX-License-Identifier: GPL-2.0-only
// This file implements exploration runs, replay and the failure listing.
#include "model/sched/explorer.h"

#include <chrono>
#include <cstdlib>

#include "model/base/rng.h"
#include "model/sched/exhaustive_strategy.h"
#include "model/sched/partition_plan.h"
#include "model/sched/replay_strategy.h"

namespace squashlab {

std::unique_ptr<Strategy> MakeStrategy(const ExploreOptions& opt,
                                       const FootprintFn& footprint) {
  if (opt.strategy == "random") return MakeRandomStrategy();
  if (opt.strategy == "exhaustive") {
    auto s = std::make_unique<ExhaustiveStrategy>(opt.preemption_bound, opt.por,
                                                  opt.iterative);
    s->set_footprint(footprint);
    return s;
  }
  return MakePctStrategy(opt.pct_depth, opt.pct_steps);
}

ExploreOptions ExploreOptionsFromEnv(ExploreOptions o) {
  auto env = [](const char* name) -> const char* { return std::getenv(name); };
  if (const char* v = env("SQUASHLAB_STRATEGY")) o.strategy = v;
  if (const char* v = env("SQUASHLAB_SEED"))
    o.seed = std::strtoull(v, nullptr, 10);
  if (const char* v = env("SQUASHLAB_RUNS")) o.max_runs = std::atol(v);
  if (const char* v = env("SQUASHLAB_SECONDS")) o.max_seconds = std::atof(v);
  if (const char* v = env("SQUASHLAB_PCT_DEPTH")) o.pct_depth = std::atoi(v);
  if (const char* v = env("SQUASHLAB_PREEMPTION_BOUND"))
    o.preemption_bound = std::atoi(v);
  if (const char* v = env("SQUASHLAB_POR")) o.por = std::atoi(v) != 0;
  o.shard = ShardFromEnv();
  return o;
}

RunResult Explorer::RunOnce(const RunSpec& sc, Strategy& strategy,
                            uint64_t seed, bool trace, uint64_t* fingerprint) {
  strategy.BeginRun(seed);
  exec_.Reset(&strategy, trace);
  RunResult r;
  ScenarioOutcome out = sc.run(exec_, seed, fingerprint);
  r.report = out.report;
  r.reports = out.reports;
  r.completed = out.ok();
  r.steps = exec_.Steps();
  r.preemptions = exec_.preemptions();
  r.switches = exec_.switches();
  r.seed = seed;
  r.strategy = strategy.Name();
  r.choices.assign(exec_.choices().begin(), exec_.choices().end());
  r.pruned = exec_.abandoned();
  if (trace) r.trace = std::move(exec_.trace());
  r.more = strategy.EndRun(r.steps);
  r.owned = strategy.RunOwned();
  return r;
}

ExploreResult Explorer::Explore(const RunSpec& sc, const ExploreOptions& opt) {
  ExploreResult res;
  auto start = std::chrono::steady_clock::now();
  std::unique_ptr<Strategy> strategy = MakeStrategy(opt, sc.footprint);
  bool exhaustive = opt.strategy == "exhaustive";
  // Exhaustive search is partitioned by schedule prefix (dfs_partition.h):
  // each shard searches its own subtrees.
  if (exhaustive && opt.shard.total > 1) {
    ExhaustiveFactory make = [&] {
      auto s = std::make_unique<ExhaustiveStrategy>(opt.preemption_bound,
                                                    opt.por, opt.iterative);
      s->set_footprint(sc.footprint);
      return s;
    };
    DfsPartition part;
    part.cut =
        PlanCut(*this, sc, make, opt.seed, kSubtreesPerPart * opt.shard.total);
    part.total = opt.shard.total;
    part.index = opt.shard.index;
    part.owners = std::make_shared<const std::vector<int>>(
        PlanOwners(*this, sc, make, opt.seed, part.cut, part.total).owners);
    static_cast<ExhaustiveStrategy&>(*strategy).set_partition(part);
  }
  for (long run = 0; run < opt.max_runs; run++) {
    if (!exhaustive && !opt.shard.Owns(run)) continue;
    uint64_t seed = exhaustive ? opt.seed : Rng::Mix(opt.seed, run);
    RunResult r = RunOnce(sc, *strategy, seed, false);
    if (!r.owned) {
      run--;  // another shard's: not one of this shard's runs
      if (!r.more) {
        res.exhausted = true;
        break;
      }
      continue;
    }
    res.runs++;
    res.pruned += r.pruned ? 1 : 0;
    res.switches += r.switches;
    if (r.failed()) {
      res.found = true;
      res.first_failing_run = static_cast<int>(run);
      // Re-run by replay to get the trace of exactly this schedule.
      res.failure = Replay(sc, r.Token(sc.name));
      res.failure.strategy = r.strategy;
      res.minimised = opt.minimise
                          ? Minimise(sc, res.failure, opt.minimise_budget)
                          : res.failure;
      break;
    }
    if (!r.more) {
      res.exhausted = true;
      break;
    }
    double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    if (opt.max_seconds > 0 && secs > opt.max_seconds) break;
  }
  res.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return res;
}

RunResult Explorer::Replay(const RunSpec& sc, const ReplayToken& token,
                           bool trace) {
  auto replay = MakeReplayStrategy(token.choices);
  RunResult r = RunOnce(sc, *replay, token.seed, trace);
  r.strategy = token.strategy;
  r.diverged = replay->diverged() || r.choices.size() < token.choices.size();
  return r;
}

std::string Explorer::FormatFailure(const RunSpec& sc, const ExploreResult& r) {
  if (!r.found) return "no violation in " + std::to_string(r.runs) + " runs\n";
  const RunResult& m = r.minimised;
  std::string out = m.report.ToString();
  out += "scenario: " + sc.name + "\nseed: " + std::to_string(m.seed) + "\n";
  out += "found at run " + std::to_string(r.first_failing_run) + " by " +
         r.failure.strategy + " (" + std::to_string(r.failure.preemptions) +
         " preemptions, " + std::to_string(r.failure.steps) + " steps)\n";
  out += "replay token: " + r.failure.Token(sc.name).ToString() + "\n";
  out += "minimised: " + std::to_string(m.preemptions) + " preemptions, " +
         std::to_string(m.steps) +
         " steps; token: " + m.Token(sc.name).ToString() + "\n";
  out +=
      m.trace.Ftrace("explore, scenario " + sc.name + ", minimised schedule");
  return out;
}

}  // namespace squashlab
