// SPDX-License-Identifier: GPL-2.0-only
// This file implements one part of an exhaustive campaign: for each cell
// (variant x decompressor) of a VerifyOptions, each scenario's bounded
// exhaustive search is cut into subtrees by schedule prefix
// (model/sched/dfs_partition.h) and this part searches its own subtrees to
// the end, recording rather than stopping at violations. What it found —
// counts, the distinct outcomes (the state each complete run left), a
// digest of the schedules it ran, the first run of each report class — is
// committed subtree by subtree, so that a campaign can stop at any point
// and resume from its last commit without losing or repeating a run.
#ifndef SQUASHLAB_HARNESS_CAMPAIGN_CAMPAIGN_H_
#define SQUASHLAB_HARNESS_CAMPAIGN_CAMPAIGN_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "harness/verify/verify.h"
#include "model/sched/dfs_partition.h"
#include "model/sched/exhaustive_strategy.h"

namespace squashlab {

// Subtrees claimed by the parts of one process (parts that share the
// work as they go rather than by subtree number). Thread-safe.
class SubtreeClaims {
 public:
  // True for the first caller with these (cell, scenario, subtree).
  bool Claim(size_t cell, size_t scenario, long subtree);
  // How many subtrees of (cell, scenario) some part has claimed so far.
  long Claimed(size_t cell, size_t scenario);

 private:
  std::mutex mu_;
  std::set<std::tuple<size_t, size_t, long>> claimed_;
  std::map<std::pair<size_t, size_t>, long> counts_;
};

struct CampaignOptions {
  // The cells and their scenarios, the bound, the reduction, the seed;
  // the strategy is exhaustive whatever it says, and budget/seconds are
  // not used.
  VerifyOptions verify;
  int part = 0;
  int parts = 1;
  // Subtrees planned per part (the cut), the same in every part.
  long subtrees_per_part = kSubtreesPerPart;
  // Shared by the parts of one process: subtrees go to the first part
  // that gets to them. Resuming, claim first every subtree some part
  // finished or stopped in.
  SubtreeClaims* claims = nullptr;
  // Without claims: share the subtrees by their estimated sizes
  // (PlanOwners), else by number (k mod parts). Every part of a campaign
  // must say the same.
  bool planned_shares = true;
};

// The first run of a report class in the part, and where it is in the
// whole search's depth-first order (scenario, subtree, run in the
// subtree): merging parts keeps the earliest, the one a single process
// meets first.
struct CampaignClass {
  std::string kind, title, scenario, token;
  long runs = 0;  // runs that reported it
  long scenario_index = 0, subtree = 0, run_in_subtree = 0;
};

// What runs found, before they are added to a cell.
struct CampaignTally {
  long runs = 0, pruned = 0, failing = 0;
  uint64_t digest = 0;
  std::vector<uint64_t> outcomes;
  std::vector<CampaignClass> classes;
};

// Where a stopped search was: the strategy's position after its last run,
// and what the subtree it was in found so far.
struct CampaignCursor {
  ExhaustiveStrategy::Position position;
  long subtree = -1, run_in_subtree = 0;
  CampaignTally tally;
};

// One scenario's search in the part.
struct CampaignSearch {
  std::string scenario;
  int cut = 0;
  long subtrees = 0;       // at the cut, in the whole search
  std::vector<long> done;  // this part's subtrees searched to the end
  bool finished = false;   // every subtree of the part is done
  std::optional<CampaignCursor> cursor;  // stopped inside a subtree
};

struct CampaignCell {
  std::string variant, decomp;
  long runs = 0;     // complete or abandoned by the reduction
  long pruned = 0;   // abandoned by the reduction
  long failing = 0;  // runs with at least one report
  // Sum (mod 2^64) of a hash of each complete run's scenario and choices:
  // parts that ran the same schedules add up to the same digest.
  uint64_t digest = 0;
  std::set<uint64_t> outcomes;  // the state each complete run left
  std::vector<CampaignClass> classes;
  std::vector<CampaignSearch> searches;  // one per scenario
  double seconds = 0;
  bool finished() const;
};

struct CampaignResult {
  int part = 0, parts = 1;
  long subtrees_per_part = kSubtreesPerPart;
  int preemption_bound = 0;
  bool por = true, iterative = true;
  uint64_t seed = 1;
  std::string faults, device;
  std::vector<std::string> workloads, kernels;
  std::vector<CampaignCell> cells;
  double seconds = 0;
  bool finished() const;
};

// What a running campaign tells its caller.
struct CampaignProgress {
  size_t cell_index = 0;  // of CampaignResult::cells
  size_t cells = 0;
  const CampaignCell* cell = nullptr;
  const std::string* scenario = nullptr;
  long runs = 0;          // of the cell so far, committed or not
  long session_runs = 0;  // of the part since RunCampaign was called
  int level = 0;          // the bound being searched (iterative)
  // Subtrees of this scenario: the part's done and planned share, or,
  // when the parts share by claims (`shared`), the subtrees claimed by
  // every part so far and the scenario's total.
  long subtrees_done = 0;
  long subtrees_owned = 0;
  bool shared = false;
};

struct CampaignHooks {
  // Between runs (often): stop at the next subtree boundary when it says.
  const std::atomic<bool>* stop = nullptr;
  // After each run, with the progress.
  std::function<void(const CampaignProgress&)> progress;
  // After each commit (a subtree done) and every few thousand runs (with
  // the search's cursor), with the result so far: a checkpoint to write.
  std::function<void(const CampaignResult&)> committed;
};

// Runs the part, starting from `resume` when it is set (a checkpoint of
// the same campaign and part: its done subtrees are left out, its counts
// kept, and a stopped search goes on from its cursor). Stops between two
// runs when hooks.stop is set, leaving a cursor in the result.
StatusOr<CampaignResult> RunCampaign(const CampaignOptions& opt,
                                     const CampaignResult* resume,
                                     const CampaignHooks& hooks);

// Whether `r` is a checkpoint of the campaign `opt` describes.
Status CheckSameCampaign(const CampaignOptions& opt, const CampaignResult& r);

// The part Bazel's test sharding gives this process (TEST_SHARD_INDEX of
// TEST_TOTAL_SHARDS; 0 of 1 outside a sharded test), telling Bazel that
// sharding is honoured.
void BazelShard(int* index, int* total);

}  // namespace squashlab

#endif  // SQUASHLAB_HARNESS_CAMPAIGN_CAMPAIGN_H_
