// This file implements ExhaustiveStrategy: a depth-first enumeration of every
// schedule with at most `preemption_bound` preemptions (CHESS-style
// iterative context bounding), by stateless re-execution: each run replays
// the recorded prefix and takes the next untried alternative at the deepest
// choice point that still has one.
#ifndef SQUASHLAB_MODEL_EXHAUSTIVE_STRATEGY_H_
#define SQUASHLAB_MODEL_EXHAUSTIVE_STRATEGY_H_

#include <vector>

#include "model/strategy.h"

namespace squashlab {

class ExhaustiveStrategy : public Strategy {
 public:
  // A negative bound means unbounded.
  explicit ExhaustiveStrategy(int preemption_bound) : bound_(preemption_bound) {}
  std::string Name() const override { return "exhaustive" + std::to_string(bound_); }
  void BeginRun(uint64_t) override {
    depth_ = 0;
    preemptions_ = 0;
  }
  int Pick(const std::vector<int>& enabled, int current, bool current_enabled, long) override;
  bool EndRun(long steps) override;
  long schedules() const { return schedules_; }
  // True when a replayed prefix met a different enabled set (the scenario is
  // not deterministic under its schedule).
  bool nondeterministic() const { return nondeterministic_; }

 private:
  struct Frame {
    std::vector<int> order;  // the non-preemptive default first
    size_t idx = 0;
    int current = -1;
    bool current_enabled = false;
    int preemptions_before = 0;
  };
  bool Allowed(const Frame& f, int choice) const;

  int bound_;
  std::vector<Frame> stack_;
  size_t depth_ = 0;
  int preemptions_ = 0;
  long schedules_ = 0;
  bool nondeterministic_ = false;
};

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_EXHAUSTIVE_STRATEGY_H_
