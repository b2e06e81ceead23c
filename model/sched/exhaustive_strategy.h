// SPDX-License-Identifier: GPL-2.0-only
// This file implements ExhaustiveStrategy: a depth-first enumeration of every
// schedule with at most `preemption_bound` preemptions (CHESS-style
// iterative context bounding), by stateless re-execution: each run replays
// the recorded prefix and takes the next untried alternative at the deepest
// choice point that still has one.
//
// With partial-order reduction (`por`), a run is abandoned as soon as it is
// shown equivalent (the same steps, dependent ones in the same order) to a
// run that comes earlier in the depth-first order and has no more
// preemptions — so it was explored, or itself abandoned for an earlier one
// (the order is well-founded). Two rules, with the dependency relation of
// exhaustive_strategy_por.h (a step that creates tasks or numbered objects
// also depends on every other such step: ids follow creation order):
//
// 1. Preemption. Task t was preempted before step s; the others ran a
//    window W; when t resumes, s depends on no step of W and turns neither
//    preemption nor interrupts off (which would gate W's tasks of its CPU;
//    waking or ungating only leaves W's steps enabled). Then running s
//    first and preempting t just after it (the same node's first child) is
//    equivalent, with no more preemptions.
// 2. Passed-over sibling. At a node the run took child j while task x was
//    child i < j (explored before; not the preempted task: rule 1). When x
//    first runs, its steps up to where it blocks or finishes follow one
//    another (its "chunk") and none depends on a step since the node, nor
//    gates. Then running the chunk first at the node (child i), x blocking
//    there (a free switch), then the same steps, is equivalent with the
//    same preemptions.
//
// Every state and report the full search reaches within the bound is then
// reached, under the premise stated in exhaustive_strategy_por.cc.
#ifndef SQUASHLAB_MODEL_SCHED_EXHAUSTIVE_STRATEGY_H_
#define SQUASHLAB_MODEL_SCHED_EXHAUSTIVE_STRATEGY_H_

#include <vector>

#include "model/base/rng.h"
#include "model/sched/dfs_partition.h"
#include "model/sched/step_footprint.h"
#include "model/sched/strategy.h"

namespace squashlab {

class ExhaustiveStrategy : public Strategy {
 public:
  // A negative bound means unbounded. `iterative`: CHESS's iterative
  // context bounding — every schedule with no preemption first, then with
  // up to one, ... up to the bound (each level repeats the few schedules of
  // the levels below), so a shallow bug is found early.
  explicit ExhaustiveStrategy(int preemption_bound, bool por = false,
                              bool iterative = false)
      : bound_(preemption_bound),
        por_(por),
        iterative_(iterative && preemption_bound > 0) {}
  std::string Name() const override {
    return (por_ ? "exhaustive-por" : "exhaustive") + std::to_string(bound_);
  }
  void BeginRun(uint64_t) override;
  int Pick(const std::vector<int>& enabled, int current, bool current_enabled,
           long) override;
  bool OnStep(const StepInfo& step) override;
  bool WantsSteps() const override { return por_; }
  // What each step touches (the system's table: RunSpec::footprint).
  // Without one every step touches everything and the reduction prunes
  // nothing.
  void set_footprint(FootprintFn fn) { footprint_ = std::move(fn); }
  bool EndRun(long steps) override;
  // Searches only this part's subtrees (see dfs_partition.h). The
  // reduction's state is rebuilt along every replayed prefix as in the
  // whole search: a run's pruning depends on its own path only.
  void set_partition(DfsPartition part) { part_ = std::move(part); }
  bool RunOwned() const override { return run_owned_; }
  // The subtree of the run that just ended, and how many were met so far
  // (with a partition).
  long subtree() const { return subtree_; }
  long subtrees() const { return subtrees_; }
  // Whether the run that just ended reached the cut.
  bool reached_cut() const { return reached_cut_; }
  // One choice point of the current path.
  struct Frame {
    std::vector<int> order;  // the non-preemptive default first
    size_t idx = 0;
    int current = -1;
    bool current_enabled = false;
    int preemptions_before = 0;
  };
  // Where the search is between two runs. Restored into a strategy made
  // alike (bound, reduction, footprints, partition), it goes on with the
  // run that would have come next: a checkpoint loses and repeats nothing.
  struct Position {
    std::vector<Frame> stack;
    int level = 0;
    long schedules = 0, pruned = 0, subtrees = 0, subtree = -1;
    bool subtree_owned = true;
  };
  Position Save() const;
  void Restore(const Position& p);
  // With a partition: where each subtree starts, in subtree order, as the
  // runs meet them — its path from the root to the cut and the bound of
  // its pass (an empty path for a run that ended above the cut, a subtree
  // of one run). Restored, a position of it runs down that path.
  void set_record_paths(std::vector<Position>* paths) { paths_ = paths; }
  // Probing (Knuth's estimator of a tree's size, with importance
  // sampling): every choice point past the restored path takes one of its
  // allowed alternatives at random (`seed`), and the run's estimate is the
  // product of the inverse odds of each choice: its mean over random runs
  // is the number of runs the search makes below the path. `points`: the
  // preemption points of the default path below it (a probe with
  // `points` < 0 takes that path and counts them: probe_points()). A probe
  // is one run: EndRun reports nothing more.
  void set_probe(uint64_t seed, long points) {
    probing_ = true;
    probe_rng_ = Rng(seed);
    probe_points_ = points;
  }
  double probe_estimate() const { return probe_estimate_; }
  long probe_points() const { return probe_passed_; }
  // Runs so far of this part (complete or abandoned), and of them the
  // abandoned ones.
  long schedules() const { return schedules_; }
  long pruned() const { return pruned_; }
  // The preemption bound being explored (the bound, unless iterative).
  int level() const { return iterative_ ? level_ : bound_; }
  // True when a replayed prefix met a different enabled set (the scenario is
  // not deterministic under its schedule).
  bool nondeterministic() const { return nondeterministic_; }

 private:
  struct LoggedStep {
    int task;
    bool created;
    int cpu;
    bool interrupt;  // an interrupt handler (runs while preemption is off)
    int gates_more;  // StepInfo::gates_more
    StepFootprint fp;
  };
  // A task passed over at a node whose first step since is log_[from]: the
  // preempted task (rule 1) or an earlier-explored sibling (rule 2).
  struct Passed {
    int task;
    size_t from;
  };
  // A passed-over task running its first steps since (rule 2).
  struct Chunk {
    int task = -1;
    size_t start = 0;           // its first step in log_
    std::vector<size_t> froms;  // the nodes it was passed over at
  };
  bool Allowed(const Frame& f, int choice) const;
  bool Independent(size_t from, size_t to, const LoggedStep& s) const;
  bool UselessChunk() const;
  void PickAtRandom(Frame* f);  // probing
  StepFootprint Footprint(const StepInfo& step) const;

  int bound_;
  bool por_;
  bool iterative_;
  FootprintFn footprint_;
  int level_ = 0;  // the bound of this pass (iterative)
  std::vector<Frame> stack_;
  size_t depth_ = 0;
  int preemptions_ = 0;
  long schedules_ = 0;
  long pruned_ = 0;
  bool nondeterministic_ = false;
  std::vector<LoggedStep> log_;   // this run's steps (with por)
  std::vector<Passed> windows_;   // preempted tasks not yet resumed
  std::vector<Passed> siblings_;  // passed-over siblings not yet run
  Chunk chunk_;
  DfsPartition part_;
  long subtree_ = -1;
  long subtrees_ = 0;
  bool subtree_owned_ = true;
  bool reached_cut_ = false;
  bool run_owned_ = true;
  bool run_pruned_ = false;
  std::vector<Position>* paths_ = nullptr;
  bool probing_ = false;
  Rng probe_rng_;
  double probe_estimate_ = 1;
  long probe_points_ = -1;
  long probe_passed_ = 0;  // preemption points passed (probing)
};

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_SCHED_EXHAUSTIVE_STRATEGY_H_
