// This file implements preemption-bounded exhaustive exploration and its
// partial-order reduction (see the header for why the pruning is sound).
#include "model/exhaustive_strategy.h"

#include <algorithm>

namespace squashlab {

void ExhaustiveStrategy::BeginRun(uint64_t) {
  depth_ = 0;
  preemptions_ = 0;
  log_.clear();
  windows_.clear();
}

bool ExhaustiveStrategy::Allowed(const Frame& f, int choice) const {
  int p = f.preemptions_before + (f.current_enabled && choice != f.current ? 1 : 0);
  return bound_ < 0 || p <= level();
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
  if (current_enabled && choice != current) {
    preemptions_++;
    if (por_) windows_.push_back(Window{current, log_.size()});
  }
  return choice;
}

bool ExhaustiveStrategy::UselessPreemption(const Window& w, const LoggedStep& s,
                                           bool gates_more) const {
  if (s.fp.all || gates_more) return false;
  for (size_t i = w.from; i < log_.size(); i++) {
    const LoggedStep& x = log_[i];
    if (Conflict(s.fp, x.fp) || (s.spawned && x.spawned)) return false;
  }
  return true;
}

bool ExhaustiveStrategy::OnStep(int task, const char* op, uint64_t arg, bool spawned,
                                bool gates_more) {
  if (!por_) return true;
  LoggedStep s{task, spawned, FootprintOf(op, arg)};
  for (size_t i = 0; i < windows_.size(); i++) {
    if (windows_[i].task != task) continue;
    const bool useless = UselessPreemption(windows_[i], s, gates_more);
    windows_.erase(windows_.begin() + static_cast<long>(i));
    if (useless) {
      pruned_++;
      return false;
    }
    break;
  }
  log_.push_back(s);
  return true;
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
  if (iterative_ && level_ < bound_) {
    level_++;  // the next pass starts afresh, one more preemption allowed
    return true;
  }
  return false;
}

}  // namespace squashlab
