// SPDX-License-Identifier: GPL-2.0-only
// This file implements the random and PCT strategies and the non-preemptive
// default pick.
#include <algorithm>
#include <vector>

#include "model/base/rng.h"
#include "model/sched/replay_strategy.h"
#include "model/sched/strategy.h"

namespace squashlab {

int NonPreemptivePick(const std::vector<int>& enabled, int current,
                      bool current_enabled) {
  return current_enabled ? current : enabled.front();
}

namespace {

class RandomStrategy : public Strategy {
 public:
  std::string Name() const override { return "random"; }
  bool WantsSteps() const override { return false; }
  void BeginRun(uint64_t seed) override { rng_ = Rng(seed); }
  int Pick(const std::vector<int>& enabled, int, bool, long) override {
    return enabled[rng_.Below(enabled.size())];
  }
  Rng* UniformPicks() override { return &rng_; }

 private:
  Rng rng_;
};

class PctStrategy : public Strategy {
 public:
  PctStrategy(int depth, long steps_estimate)
      : depth_(std::max(1, depth)),
        estimate_(steps_estimate),
        learn_(steps_estimate <= 0) {}
  std::string Name() const override { return "pct" + std::to_string(depth_); }
  bool WantsSteps() const override { return false; }

  void BeginRun(uint64_t seed) override {
    rng_ = Rng(seed);
    prio_.clear();
    change_points_.clear();
    long k = std::max(1L, estimate_);
    for (int i = 1; i < depth_; i++)
      change_points_.push_back(1 + rng_.Below(k));
    std::sort(change_points_.begin(), change_points_.end());
    next_change_ = 0;
  }
  void OnSpawn(int id) override {
    // Initial priorities are above every change-point priority (< depth).
    Prio(id) = depth_ + static_cast<long>(rng_.Below(1u << 30));
  }
  int Pick(const std::vector<int>& enabled, int current, bool,
           long step) override {
    while (next_change_ < change_points_.size() &&
           change_points_[next_change_] <= step) {
      if (current >= 0)
        Prio(current) = depth_ - 1 - static_cast<long>(next_change_);
      next_change_++;
    }
    Prio(enabled.back());  // ids ascend: every one has a priority now
    int best = enabled.front();
    long best_prio = prio_[best];
    for (int id : enabled) {
      if (prio_[id] > best_prio) {
        best = id;
        best_prio = prio_[id];
      }
    }
    return best;
  }
  bool EndRun(long steps) override {
    if (learn_) estimate_ = std::max(estimate_, steps);
    return true;
  }

 private:
  int depth_;
  long estimate_;
  bool learn_;
  Rng rng_;
  // By task id (ids count up from 0); 0 for a task never seen.
  long& Prio(int id) {
    if (static_cast<size_t>(id) >= prio_.size()) prio_.resize(id + 1, 0);
    return prio_[id];
  }
  std::vector<long> prio_;
  std::vector<long> change_points_;
  size_t next_change_ = 0;
};

}  // namespace

std::unique_ptr<Strategy> MakeRandomStrategy() {
  return std::make_unique<RandomStrategy>();
}
std::unique_ptr<Strategy> MakePctStrategy(int depth, long steps_estimate) {
  return std::make_unique<PctStrategy>(depth, steps_estimate);
}
std::unique_ptr<ReplayStrategy> MakeReplayStrategy(std::vector<int> choices) {
  return std::make_unique<ReplayStrategy>(std::move(choices));
}

}  // namespace squashlab
