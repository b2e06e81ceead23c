// This file implements ExhaustiveStrategy: a depth-first enumeration of every
// schedule with at most `preemption_bound` preemptions (CHESS-style
// iterative context bounding), by stateless re-execution: each run replays
// the recorded prefix and takes the next untried alternative at the deepest
// choice point that still has one.
//
// With partial-order reduction (`por`), a run is abandoned as soon as one
// of its preemptions is shown useless: task t was preempted before step s,
// the other tasks ran a window W, and when t resumes, s conflicts with no
// step of W (exhaustive_strategy_por.h), creates no task while W did, and
// changes no gating state. Then s commutes with W, so the run is equivalent
// to the one where t ran s first and was preempted just after it — with no
// more preemptions, and in the same depth-first tree, where it is explored
// (or itself abandoned for a later, equivalent preemption: each step of
// the argument moves a preemption later, so it ends). Every state and
// report the full search reaches within the bound is reached.
#ifndef SQUASHLAB_MODEL_EXHAUSTIVE_STRATEGY_H_
#define SQUASHLAB_MODEL_EXHAUSTIVE_STRATEGY_H_

#include <vector>

#include "model/exhaustive_strategy_por.h"
#include "model/strategy.h"

namespace squashlab {

class ExhaustiveStrategy : public Strategy {
 public:
  // A negative bound means unbounded. `iterative`: CHESS's iterative
  // context bounding — every schedule with no preemption first, then with
  // up to one, ... up to the bound (each level repeats the few schedules of
  // the levels below), so a shallow bug is found early.
  explicit ExhaustiveStrategy(int preemption_bound, bool por = false, bool iterative = false)
      : bound_(preemption_bound), por_(por), iterative_(iterative && preemption_bound > 0) {}
  std::string Name() const override {
    return (por_ ? "exhaustive-por" : "exhaustive") + std::to_string(bound_);
  }
  void BeginRun(uint64_t) override;
  int Pick(const std::vector<int>& enabled, int current, bool current_enabled, long) override;
  bool OnStep(int task, const char* op, uint64_t arg, bool spawned, bool gates_more) override;
  bool EndRun(long steps) override;
  // Runs so far (complete or abandoned), and of them the abandoned ones.
  long schedules() const { return schedules_; }
  long pruned() const { return pruned_; }
  // The preemption bound being explored (the bound, unless iterative).
  int level() const { return iterative_ ? level_ : bound_; }
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
  struct LoggedStep {
    int task;
    bool spawned;
    StepFootprint fp;
  };
  // A preempted task and where its window starts in the step log.
  struct Window {
    int task;
    size_t from;
  };
  bool Allowed(const Frame& f, int choice) const;
  bool UselessPreemption(const Window& w, const LoggedStep& s, bool gates_more) const;

  int bound_;
  bool por_;
  bool iterative_;
  int level_ = 0;                  // the bound of this pass (iterative)
  std::vector<Frame> stack_;
  size_t depth_ = 0;
  int preemptions_ = 0;
  long schedules_ = 0;
  long pruned_ = 0;
  bool nondeterministic_ = false;
  std::vector<LoggedStep> log_;    // this run's steps (with por)
  std::vector<Window> windows_;    // preempted tasks not yet resumed
};

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_EXHAUSTIVE_STRATEGY_H_
