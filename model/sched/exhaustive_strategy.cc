// SPDX-License-Identifier: GPL-2.0-only
// This file implements preemption-bounded exhaustive exploration and its
// partial-order reduction (see the header for why the pruning is sound).
#include "model/sched/exhaustive_strategy.h"

#include <algorithm>

namespace squashlab {

void ExhaustiveStrategy::BeginRun(uint64_t) {
  depth_ = 0;
  preemptions_ = 0;
  log_.clear();
  windows_.clear();
  siblings_.clear();
  chunk_ = Chunk{};
  reached_cut_ = false;
  run_owned_ = true;
  run_pruned_ = false;
  probe_estimate_ = 1;
  probe_passed_ = 0;
}

bool ExhaustiveStrategy::Allowed(const Frame& f, int choice) const {
  int p =
      f.preemptions_before + (f.current_enabled && choice != f.current ? 1 : 0);
  return bound_ < 0 || p <= level();
}

int ExhaustiveStrategy::Pick(const std::vector<int>& enabled, int current,
                             bool current_enabled, long) {
  if (part_.active() && depth_ == static_cast<size_t>(part_.cut)) {
    // At the cut. No frame here yet: the previous run backtracked above
    // the cut (or this is the first run), so this run enters a new subtree.
    reached_cut_ = true;
    if (stack_.size() <= depth_) {
      subtree_ = subtrees_++;
      subtree_owned_ = part_.Owns(subtree_);
      if (paths_ != nullptr) {
        paths_->emplace_back();
        paths_->back().stack = stack_;
        paths_->back().level = level_;
      }
    }
    run_owned_ = subtree_owned_;
    if (!run_owned_) return kAbandonRun;  // no frame: EndRun backtracks above
  }
  if (depth_ < stack_.size()) {
    // Replaying the recorded prefix. If this run diverged from it (the
    // scenario is not deterministic under its schedule), the recorded choice
    // may not even be runnable: drop the stale frames and explore afresh
    // from here rather than pick a task that cannot run.
    const Frame& f = stack_[depth_];
    const bool same =
        f.current == current && f.order.size() == enabled.size() &&
        std::find(enabled.begin(), enabled.end(), f.order[f.idx]) !=
            enabled.end();
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
    if (probing_) PickAtRandom(&f);
    stack_.push_back(std::move(f));
  }
  const Frame& f = stack_[depth_++];
  int choice = f.order[f.idx];
  if (current_enabled && choice != current) {
    preemptions_++;
    if (por_) windows_.push_back(Passed{current, log_.size()});
  }
  if (por_) {
    for (size_t i = 0; i < f.idx; i++)
      if (f.order[i] != current)
        siblings_.push_back(Passed{f.order[i], log_.size()});
  }
  return choice;
}

// Whether a step that turned `gates` off on `cpu` would have kept x from
// running (see ExploreExecutor::Gated).
static bool Gates(int gates, int cpu, int x_cpu, bool x_interrupt) {
  if (gates == 0 || cpu != x_cpu) return false;
  return (gates & StepInfo::kGatesInterrupts) || !x_interrupt;
}

// Whether s depends on no step of log_[from, to): it conflicts with none,
// and turns nothing off that would have kept one from running.
bool ExhaustiveStrategy::Independent(size_t from, size_t to,
                                     const LoggedStep& s) const {
  if (s.fp.all) return false;
  for (size_t i = from; i < to; i++) {
    const LoggedStep& x = log_[i];
    if (Conflict(s.fp, x.fp) || (s.created && x.created)) return false;
    if (Gates(s.gates_more, s.cpu, x.cpu, x.interrupt)) return false;
  }
  return true;
}

// Rule 2: the chunk just ended (its task blocked or finished).
bool ExhaustiveStrategy::UselessChunk() const {
  for (size_t from : chunk_.froms) {
    bool independent = true;
    for (size_t i = chunk_.start; i < log_.size() && independent; i++)
      independent = Independent(from, chunk_.start, log_[i]);
    if (independent) return true;
  }
  return false;
}

StepFootprint ExhaustiveStrategy::Footprint(const StepInfo& step) const {
  if (footprint_) return footprint_(step);
  StepFootprint all;
  all.all = true;
  return all;
}

bool ExhaustiveStrategy::OnStep(const StepInfo& step) {
  if (!por_) return true;
  LoggedStep s{step.task,       step.created,
               step.cpu,        step.context == TaskContext::kInterrupt,
               step.gates_more, Footprint(step)};
  // Rule 1: t resumes after its preemption.
  for (size_t i = 0; i < windows_.size(); i++) {
    if (windows_[i].task != step.task) continue;
    const bool useless = Independent(windows_[i].from, log_.size(), s);
    windows_.erase(windows_.begin() + static_cast<long>(i));
    if (useless) {
      run_pruned_ = true;
      return false;
    }
    break;
  }
  // Rule 2: a chunk runs on only while its task keeps running.
  if (chunk_.task >= 0 && chunk_.task != step.task) chunk_ = Chunk{};
  if (chunk_.task < 0) {
    for (size_t i = 0; i < siblings_.size();) {
      if (siblings_[i].task != step.task) {
        i++;
        continue;
      }
      chunk_.task = step.task;
      chunk_.start = log_.size();
      chunk_.froms.push_back(siblings_[i].from);
      siblings_.erase(siblings_.begin() + static_cast<long>(i));
    }
  }
  log_.push_back(s);
  if (chunk_.task == step.task && step.stopped) {
    const bool useless = UselessChunk();
    chunk_ = Chunk{};
    if (useless) {
      run_pruned_ = true;
      return false;
    }
  }
  return true;
}

void ExhaustiveStrategy::PickAtRandom(Frame* f) {
  std::vector<size_t> allowed;
  for (size_t i = 0; i < f->order.size(); i++)
    if (Allowed(*f, f->order[i])) allowed.push_back(i);
  const size_t a = allowed.size();
  if (a <= 1) return;       // the default, at [0], always is allowed
  if (probe_points_ < 0) {  // the default path, counting its points
    probe_passed_ += f->current_enabled ? 1 : 0;
    return;
  }
  if (!f->current_enabled) {  // free choices: uniform
    f->idx = allowed[probe_rng_.Below(a)];
    probe_estimate_ *= static_cast<double>(a);
    return;
  }
  // A preemption point. The default child keeps the preemption budget and
  // holds most of the runs; spreading the budget's preemptions evenly over
  // the points still to come (as counted on the default path) draws paths
  // about in proportion to the runs below them, which keeps the weights,
  // and so the estimate's variance, small. Unbiased whatever the odds.
  const int left = level() - preemptions_;
  const long points = std::max(1L, probe_points_ - probe_passed_++);
  double odds = std::min(0.5, static_cast<double>(left) / points);
  if (odds <= 0) return;
  if (probe_rng_.Below(1u << 30) < odds * (1u << 30)) {
    f->idx = allowed[1 + probe_rng_.Below(a - 1)];
    probe_estimate_ *= static_cast<double>(a - 1) / odds;
  } else {
    probe_estimate_ /= 1 - odds;
  }
}

bool ExhaustiveStrategy::EndRun(long) {
  if (probing_) return false;
  if (part_.active() && !reached_cut_) {
    // A leaf above the cut: a subtree of its own.
    subtree_ = subtrees_++;
    run_owned_ = part_.Owns(subtree_);
    if (paths_ != nullptr) paths_->emplace_back();  // no path: one run
  }
  if (run_owned_) {
    schedules_++;
    pruned_ += run_pruned_ ? 1 : 0;
  }
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

ExhaustiveStrategy::Position ExhaustiveStrategy::Save() const {
  return Position{stack_,    level_,   schedules_,    pruned_,
                  subtrees_, subtree_, subtree_owned_};
}

void ExhaustiveStrategy::Restore(const Position& p) {
  stack_ = p.stack;
  level_ = p.level;
  schedules_ = p.schedules;
  pruned_ = p.pruned;
  subtrees_ = p.subtrees;
  subtree_ = p.subtree;
  subtree_owned_ = p.subtree_owned;
}

}  // namespace squashlab
