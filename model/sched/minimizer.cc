// SPDX-License-Identifier: GPL-2.0-only
// This file implements schedule minimisation: the fewest preemptions (by
// preemption-bounded exhaustive search under the failing schedule's count),
// then the fewest steps (by replaying ever shorter prefixes of the choices,
// or single choices reverted to the non-preemptive default), always keeping
// the same report.
#include "model/sched/exhaustive_strategy.h"
#include "model/sched/explorer.h"
#include "model/sched/replay_strategy.h"

namespace squashlab {
namespace {

// Fewer preemptions, then the report sooner (a run goes on after a
// warning), then a shorter run.
bool Better(const RunResult& a, const RunResult& b) {
  if (a.preemptions != b.preemptions) return a.preemptions < b.preemptions;
  if (a.report.step != b.report.step) return a.report.step < b.report.step;
  return a.steps < b.steps;
}

}  // namespace

bool Explorer::FewerPreemptions(const RunSpec& sc, RunResult* best,
                                long* budget) {
  for (int bound = 0; bound<best->preemptions&& * budget> 0; bound++) {
    ExhaustiveStrategy ex(bound);
    for (;;) {
      RunResult r = RunOnce(sc, ex, best->seed, false);
      --*budget;
      if (r.Focus(best->report) && Better(r, *best)) {
        *best = std::move(r);
        return true;
      }
      if (!r.more || *budget <= 0) break;
    }
  }
  return false;
}

bool Explorer::ShorterPrefix(const RunSpec& sc, RunResult* best, long* budget) {
  const std::vector<int> base = best->choices;
  for (size_t i = 0; i < base.size() && *budget > 0; i++) {
    for (int variant = 0; variant < 2 && *budget > 0; variant++) {
      std::vector<int> cand(base.begin(), base.begin() + i);
      if (variant == 1) {  // revert choice i to the default, keep the rest
        cand.push_back(-1);
        cand.insert(cand.end(), base.begin() + i + 1, base.end());
      }
      ReplayStrategy replay(cand);
      RunResult r = RunOnce(sc, replay, best->seed, false);
      --*budget;
      if (r.Focus(best->report) && Better(r, *best)) {
        *best = std::move(r);
        return true;
      }
    }
  }
  return false;
}

RunResult Explorer::Minimise(const RunSpec& sc, const RunResult& failing,
                             long budget) {
  RunResult best = failing;
  std::string strategy = failing.strategy;
  FewerPreemptions(sc, &best, &budget);
  while (budget > 0 && ShorterPrefix(sc, &best, &budget)) {
  }
  RunResult traced = Replay(sc, best.Token(sc.name));
  traced.Focus(best.report);
  traced.strategy = strategy + "-min";
  return traced;
}

}  // namespace squashlab
