// This file implements preemption-bounded exhaustive exploration.
#include "model/exhaustive_strategy.h"

#include <algorithm>

namespace squashlab {

bool ExhaustiveStrategy::Allowed(const Frame& f, int choice) const {
  int p = f.preemptions_before + (f.current_enabled && choice != f.current ? 1 : 0);
  return bound_ < 0 || p <= bound_;
}

int ExhaustiveStrategy::Pick(const std::vector<int>& enabled, int current, bool current_enabled,
                             long) {
  if (depth_ < stack_.size()) {
    // Replaying the recorded prefix. If this run diverged from it (the
    // scenario is not deterministic under its schedule), the recorded choice
    // may not even be runnable: drop the stale frames and explore afresh
    // from here rather than pick a task that cannot run.
    const Frame& f = stack_[depth_];
    const bool same = f.current == current && f.order.size() == enabled.size() &&
                      std::find(enabled.begin(), enabled.end(), f.order[f.idx]) != enabled.end();
    if (!same) {
      nondeterministic_ = true;
      stack_.resize(depth_);
    }
  }
  if (depth_ == stack_.size()) {
    Frame f;
    int first = NonPreemptivePick(enabled, current, current_enabled);
    f.order.push_back(first);
    for (int id : enabled)
      if (id != first) f.order.push_back(id);
    f.current = current;
    f.current_enabled = current_enabled;
    f.preemptions_before = preemptions_;
    stack_.push_back(std::move(f));
  }
  const Frame& f = stack_[depth_++];
  int choice = f.order[f.idx];
  if (current_enabled && choice != current) preemptions_++;
  return choice;
}

bool ExhaustiveStrategy::EndRun(long) {
  schedules_++;
  stack_.resize(depth_);  // frames beyond this run's depth are stale
  while (!stack_.empty()) {
    Frame& f = stack_.back();
    while (++f.idx < f.order.size()) {
      if (Allowed(f, f.order[f.idx])) return true;
    }
    stack_.pop_back();
  }
  return false;
}

}  // namespace squashlab
