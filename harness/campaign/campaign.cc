// SPDX-License-Identifier: GPL-2.0-only
// This file implements one part of an exhaustive campaign, committed
// subtree by subtree.
#include "harness/campaign/campaign.h"

#include <algorithm>
#include <chrono>
#include <tuple>
#include <unordered_set>
#include <utility>

#include "model/base/rng.h"
#include "model/sched/exhaustive_strategy.h"
#include "model/sched/partition_plan.h"
#include "model/sched/shard.h"

namespace squashlab {
namespace {

uint64_t ScheduleHash(size_t scenario, const std::vector<int>& choices) {
  uint64_t h = 1469598103934665603ULL ^ scenario;
  for (int x : choices)
    h = (h ^ static_cast<uint64_t>(x + 1)) * 1099511628211ULL;
  return Rng::Mix(h, scenario);
}

std::tuple<long, long, long> Order(const CampaignClass& c) {
  return {c.scenario_index, c.subtree, c.run_in_subtree};
}

void AddClass(std::vector<CampaignClass>* to, const CampaignClass& c) {
  for (CampaignClass& x : *to) {
    if (x.kind != c.kind || x.title != c.title) continue;
    const long runs = x.runs + c.runs;
    if (Order(c) < Order(x)) x = c;
    x.runs = runs;
    return;
  }
  to->push_back(c);
}

void Commit(const CampaignTally& p, CampaignCell* cell) {
  cell->runs += p.runs;
  cell->pruned += p.pruned;
  cell->failing += p.failing;
  cell->digest += p.digest;
  cell->outcomes.insert(p.outcomes.begin(), p.outcomes.end());
  for (const CampaignClass& c : p.classes) AddClass(&cell->classes, c);
}

class Searcher {
 public:
  Searcher(const CampaignOptions& opt, const CampaignHooks& hooks,
           CampaignResult* res)
      : opt_(opt), hooks_(hooks), res_(res) {}

  // Searches scenario `si` of cell `ci`; false when stopped.
  bool Search(size_t ci, size_t si, const Scenario& sc) {
    CampaignCell& cell = res_->cells[ci];
    CampaignSearch& search = cell.searches[si];
    if (search.finished) return true;
    const RunSpec spec = sc;
    const VerifyOptions& v = opt_.verify;
    ExhaustiveFactory make = [&] {
      auto s = std::make_unique<ExhaustiveStrategy>(v.preemption_bound, v.por,
                                                    v.iterative);
      s->set_footprint(spec.footprint);
      return s;
    };
    const bool fresh = search.subtrees == 0;  // not planned yet
    if (fresh)
      search.cut = PlanCut(explorer_, spec, make, v.seed,
                           opt_.subtrees_per_part * opt_.parts);
    std::unordered_set<long> done(search.done.begin(), search.done.end());
    DfsPartition part;
    part.cut = search.cut;
    part.total = opt_.parts;
    part.index = opt_.part;
    // Parts in separate processes share by a plan of estimated sizes (a
    // function of the search alone: computed again on a resume). Its walk
    // of the top counts the subtrees too.
    if (opt_.claims == nullptr && opt_.parts > 1 && opt_.planned_shares) {
      OwnerPlan plan =
          PlanOwners(explorer_, spec, make, v.seed, search.cut, opt_.parts);
      if (fresh) search.subtrees = static_cast<long>(plan.owners.size());
      part.owners =
          std::make_shared<const std::vector<int>>(std::move(plan.owners));
    } else if (fresh) {
      search.subtrees =
          SubtreesAt(explorer_, spec, make, v.seed, search.cut, 1L << 62);
    }
    part.done = [&done](long subtree) { return done.count(subtree) > 0; };
    if (opt_.claims != nullptr)
      part.claim = [this, ci, si](long subtree) {
        return opt_.claims->Claim(ci, si, subtree);
      };
    auto s = make();
    s->set_partition(part);
    CampaignProgress progress;
    progress.cell_index = ci;
    progress.cells = res_->cells.size();
    progress.cell = &cell;
    progress.scenario = &sc.name;
    progress.shared = opt_.claims != nullptr;
    auto count_subtrees = [&] {
      if (progress.shared)
        progress.subtrees_done = opt_.claims->Claimed(ci, si);
      else
        progress.subtrees_done = static_cast<long>(search.done.size());
    };
    if (progress.shared) {
      progress.subtrees_owned = search.subtrees;
    } else {
      for (long k = 0; k < search.subtrees; k++)
        progress.subtrees_owned += part.PlannedPart(k) == opt_.part ? 1 : 0;
    }
    count_subtrees();
    CampaignTally p;
    long current = -1, run_in = 0;
    if (search.cursor) {  // resumed inside a subtree
      s->Restore(search.cursor->position);
      p = std::move(search.cursor->tally);
      current = search.cursor->subtree;
      run_in = search.cursor->run_in_subtree;
      search.cursor.reset();
    }
    auto save_cursor = [&] {
      search.cursor = CampaignCursor{s->Save(), current, run_in, p};
    };
    auto start = std::chrono::steady_clock::now();
    auto commit = [&] {
      Commit(p, &cell);
      search.done.push_back(current);
      count_subtrees();
      cell.seconds += std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - start)
                          .count();
      start = std::chrono::steady_clock::now();
      if (hooks_.committed) hooks_.committed(*res_);
    };
    for (;;) {
      if (hooks_.stop != nullptr && hooks_.stop->load()) {
        save_cursor();
        return false;
      }
      uint64_t fp = 0;
      RunResult r = explorer_.RunOnce(spec, *s, v.seed, false, &fp);
      if (r.owned) {
        if (s->subtree() != current) {
          if (current >= 0) commit();
          current = s->subtree();
          p = CampaignTally{};
          run_in = 0;
          if (progress.shared) count_subtrees();
        }
        TallyRun(r, fp, sc.name, si, current, run_in++, &p);
        progress.runs = cell.runs + p.runs;
        if (++session_runs_ % 4096 == 0 && hooks_.committed && r.more) {
          save_cursor();  // a checkpoint inside a long subtree
          hooks_.committed(*res_);
          search.cursor.reset();
        }
      }
      progress.session_runs = session_runs_;
      progress.level = s->level();
      if (hooks_.progress) hooks_.progress(progress);
      if (!r.more) break;
    }
    if (current >= 0) commit();
    search.finished = true;
    if (hooks_.committed) hooks_.committed(*res_);
    return true;
  }

 private:
  static void TallyRun(const RunResult& r, uint64_t fp, const std::string& name,
                       size_t si, long subtree, long run_in, CampaignTally* p) {
    p->runs++;
    if (r.pruned) {
      p->pruned++;
    } else {
      p->digest += ScheduleHash(si, r.choices);
      p->outcomes.push_back(Rng::Mix(fp, si));
    }
    if (!r.reports.empty()) p->failing++;
    for (const Report& rep : r.reports) {
      CampaignClass c;
      c.kind = ReportKindName(rep.kind);
      c.title = rep.title;
      c.scenario = name;
      c.token = r.Token(name).ToString();
      c.runs = 1;
      c.scenario_index = static_cast<long>(si);
      c.subtree = subtree;
      c.run_in_subtree = run_in;
      AddClass(&p->classes, c);
    }
  }

  const CampaignOptions& opt_;
  const CampaignHooks& hooks_;
  CampaignResult* res_;
  Explorer explorer_;
  long session_runs_ = 0;
};

}  // namespace

bool SubtreeClaims::Claim(size_t cell, size_t scenario, long subtree) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!claimed_.emplace(cell, scenario, subtree).second) return false;
  counts_[{cell, scenario}]++;
  return true;
}

long SubtreeClaims::Claimed(size_t cell, size_t scenario) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = counts_.find({cell, scenario});
  return it == counts_.end() ? 0 : it->second;
}

bool CampaignCell::finished() const {
  for (const CampaignSearch& s : searches)
    if (!s.finished) return false;
  return true;
}

bool CampaignResult::finished() const {
  for (const CampaignCell& c : cells)
    if (!c.finished()) return false;
  return true;
}

Status CheckSameCampaign(const CampaignOptions& opt, const CampaignResult& r) {
  const VerifyOptions& v = opt.verify;
  if (r.part != opt.part || r.parts != opt.parts)
    return Status::InvalidArgument("the checkpoint is of another part");
  if (r.subtrees_per_part != opt.subtrees_per_part ||
      r.preemption_bound != v.preemption_bound || r.por != v.por ||
      r.iterative != v.iterative || r.seed != v.seed || r.faults != v.faults ||
      r.device != v.device || r.workloads != WorkloadsOf(v) ||
      r.kernels != KernelsOf(v))
    return Status::InvalidArgument("the checkpoint is of another campaign");
  return Status::Ok();
}

StatusOr<CampaignResult> RunCampaign(const CampaignOptions& opt,
                                     const CampaignResult* resume,
                                     const CampaignHooks& hooks) {
  if (opt.parts < 1 || opt.part < 0 || opt.part >= opt.parts)
    return Status::InvalidArgument("part out of range");
  if (opt.subtrees_per_part < 1)
    return Status::InvalidArgument("subtrees per part must be at least 1");
  VerifyOptions v = opt.verify;
  v.strategy = "exhaustive";
  auto cells = MakeCells(v);
  if (!cells.ok()) return cells.status();
  CampaignResult res;
  if (resume != nullptr) {
    Status st = CheckSameCampaign(opt, *resume);
    if (!st.ok()) return st;
    res = *resume;
  } else {
    res.part = opt.part;
    res.parts = opt.parts;
    res.subtrees_per_part = opt.subtrees_per_part;
    res.preemption_bound = v.preemption_bound;
    res.por = v.por;
    res.iterative = v.iterative;
    res.seed = v.seed;
    res.faults = v.faults;
    res.device = v.device;
    res.workloads = WorkloadsOf(v);
    res.kernels = KernelsOf(v);
    for (const CellScenarios& c : cells.value()) {
      CampaignCell cell;
      cell.variant = c.variant;
      cell.decomp = c.decomp;
      for (const Scenario& sc : c.scenarios)
        cell.searches.push_back(CampaignSearch{sc.name, 0, 0, {}, false, {}});
      res.cells.push_back(std::move(cell));
    }
  }
  if (res.cells.size() != cells->size())
    return Status::InvalidArgument("the checkpoint has other cells");
  auto start = std::chrono::steady_clock::now();
  CampaignOptions o = opt;
  o.verify = v;
  Searcher searcher(o, hooks, &res);
  bool stopped = false;
  for (size_t ci = 0; ci < res.cells.size() && !stopped; ci++) {
    const CellScenarios& c = cells.value()[ci];
    CampaignCell& cell = res.cells[ci];
    if (cell.variant != c.variant || cell.decomp != c.decomp ||
        cell.searches.size() != c.scenarios.size())
      return Status::InvalidArgument("the checkpoint has other cells");
    for (size_t si = 0; si < c.scenarios.size() && !stopped; si++)
      stopped = !searcher.Search(ci, si, c.scenarios[si]);
  }
  res.seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return res;
}

void BazelShard(int* index, int* total) {
  const Shard s = ShardFromEnv();
  *index = s.index;
  *total = s.total;
}

}  // namespace squashlab
