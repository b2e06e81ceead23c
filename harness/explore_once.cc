// SPDX-License-Identifier: GPL-2.0-only
// This file implements the single explore runs.
#include "harness/explore_once.h"

#include <memory>

#include "model/sched/bytes_strategy.h"

namespace squashlab {

RunResult ExploreOnce(const Scenario& sc, const std::string& strategy,
                      uint64_t seed, bool trace) {
  ExploreOptions opt;
  opt.strategy = strategy;
  opt.seed = seed;
  std::unique_ptr<Strategy> s = MakeStrategy(opt);
  Explorer explorer;
  return explorer.RunOnce(sc, *s, seed, trace);
}

RunResult ExploreOnceWithChoices(const Scenario& sc,
                                 const std::vector<uint8_t>& choices,
                                 uint64_t seed, bool trace, size_t* consumed) {
  thread_local Explorer* explorer = new Explorer();
  BytesStrategy strategy(choices);
  RunResult r = explorer->RunOnce(sc, strategy, seed, trace);
  if (consumed != nullptr) *consumed = strategy.consumed();
  return r;
}

}  // namespace squashlab
