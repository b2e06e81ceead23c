// SPDX-License-Identifier: GPL-2.0-only
// This file implements ReplayStrategy: it follows a recorded list of choices
// (one per choice point) and falls back to the non-preemptive default when
// the list ends or names a task that is not enabled.
#ifndef SQUASHLAB_MODEL_SCHED_REPLAY_STRATEGY_H_
#define SQUASHLAB_MODEL_SCHED_REPLAY_STRATEGY_H_

#include <vector>

#include "model/sched/strategy.h"

namespace squashlab {

class ReplayStrategy : public Strategy {
 public:
  explicit ReplayStrategy(std::vector<int> choices)
      : choices_(std::move(choices)) {}
  std::string Name() const override { return "replay"; }
  bool WantsSteps() const override { return false; }
  void BeginRun(uint64_t) override {
    next_ = 0;
    diverged_ = false;
  }
  int Pick(const std::vector<int>& enabled, int current, bool current_enabled,
           long) override;
  // True when a recorded choice could not be followed.
  bool diverged() const { return diverged_; }

 private:
  std::vector<int> choices_;
  size_t next_ = 0;
  bool diverged_ = false;
};

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_SCHED_REPLAY_STRATEGY_H_
