// SPDX-License-Identifier: GPL-2.0-only
// This file implements the merge of campaign parts and its table.
#include "harness/campaign/campaign_merge.h"

#include <algorithm>
#include <cstdio>
#include <tuple>

namespace squashlab {
namespace {

bool SameCampaign(const CampaignResult& a, const CampaignResult& b) {
  if (a.parts != b.parts || a.subtrees_per_part != b.subtrees_per_part ||
      a.preemption_bound != b.preemption_bound || a.por != b.por ||
      a.iterative != b.iterative || a.seed != b.seed || a.faults != b.faults ||
      a.device != b.device || a.workloads != b.workloads ||
      a.kernels != b.kernels || a.cells.size() != b.cells.size())
    return false;
  for (size_t i = 0; i < a.cells.size(); i++) {
    const CampaignCell &x = a.cells[i], &y = b.cells[i];
    if (x.variant != y.variant || x.decomp != y.decomp ||
        x.searches.size() != y.searches.size())
      return false;
    for (size_t s = 0; s < x.searches.size(); s++)
      if (x.searches[s].scenario != y.searches[s].scenario) return false;
  }
  return true;
}

void AddCell(const CampaignCell& from, CampaignCell* to) {
  to->runs += from.runs;
  to->pruned += from.pruned;
  to->failing += from.failing;
  to->digest += from.digest;
  to->seconds += from.seconds;
  to->outcomes.insert(from.outcomes.begin(), from.outcomes.end());
  for (const CampaignClass& c : from.classes) {
    auto it = std::find_if(to->classes.begin(), to->classes.end(),
                           [&](const CampaignClass& x) {
                             return x.kind == c.kind && x.title == c.title;
                           });
    if (it == to->classes.end()) {
      to->classes.push_back(c);
      continue;
    }
    const long runs = it->runs + c.runs;
    if (std::tie(c.scenario_index, c.subtree, c.run_in_subtree) <
        std::tie(it->scenario_index, it->subtree, it->run_in_subtree))
      *it = c;
    it->runs = runs;
  }
  for (size_t s = 0; s < from.searches.size(); s++) {
    const CampaignSearch& f = from.searches[s];
    CampaignSearch& t = to->searches[s];
    t.cut = f.cut;
    t.subtrees = f.subtrees;
    t.done.insert(t.done.end(), f.done.begin(), f.done.end());
    std::sort(t.done.begin(), t.done.end());
    t.finished = t.finished && f.finished;
  }
}

}  // namespace

StatusOr<MergedCampaign> MergeCampaign(
    const std::vector<CampaignResult>& parts) {
  if (parts.empty()) return Status::InvalidArgument("no parts to merge");
  const CampaignResult& first = parts.front();
  std::vector<int> seen(static_cast<size_t>(std::max(first.parts, 1)), 0);
  MergedCampaign m;
  m.result = first;
  m.result.part = 0;
  m.result.seconds = 0;
  for (CampaignCell& c : m.result.cells) {
    c = CampaignCell{c.variant, c.decomp, 0, 0, 0, 0, {}, {}, c.searches, 0};
    for (CampaignSearch& s : c.searches) {
      s.done.clear();
      s.finished = true;
      s.cursor.reset();  // an unfinished subtree's runs count nowhere yet
    }
  }
  for (const CampaignResult& p : parts) {
    if (!SameCampaign(first, p))
      return Status::InvalidArgument("the parts are of different campaigns");
    if (p.part < 0 || p.part >= first.parts)
      return Status::InvalidArgument("a part number out of range");
    if (seen[static_cast<size_t>(p.part)]++)
      return Status::InvalidArgument("part " + std::to_string(p.part) +
                                     " given twice");
    m.result.seconds += p.seconds;
    for (size_t i = 0; i < p.cells.size(); i++)
      AddCell(p.cells[i], &m.result.cells[i]);
  }
  for (size_t i = 0; i < seen.size(); i++)
    if (!seen[i]) m.missing.push_back(static_cast<int>(i));
  m.finished = m.missing.empty() && m.result.finished();
  for (CampaignCell& c : m.result.cells)
    std::sort(c.classes.begin(), c.classes.end(),
              [](const CampaignClass& a, const CampaignClass& b) {
                return std::tie(a.scenario_index, a.subtree, a.run_in_subtree) <
                       std::tie(b.scenario_index, b.subtree, b.run_in_subtree);
              });
  if (m.missing.empty()) m.result.parts = 1;
  return m;
}

std::string FormatCampaignTable(const MergedCampaign& m) {
  const CampaignResult& r = m.result;
  std::string out;
  char line[512];
  std::snprintf(line, sizeof line, "%-19s %-17s %10s %10s %9s %8s  %s\n",
                "variant", "decompressor", "runs", "complete", "outcomes",
                "failing", "verdict");
  out += line;
  long runs = 0, failing_cells = 0, unfinished = 0;
  for (const CampaignCell& c : r.cells) {
    std::string verdict =
        c.classes.empty() ? "clean"
                          : std::to_string(c.classes.size()) +
                                (c.classes.size() == 1 ? " class" : " classes");
    if (!c.finished()) {
      verdict += " (not finished)";
      unfinished++;
    } else if (c.classes.empty()) {
      verdict += " (exhausted)";
    }
    std::snprintf(line, sizeof line, "%-19s %-17s %10ld %10ld %9zu %8ld  %s\n",
                  c.variant.c_str(), c.decomp.c_str(), c.runs,
                  c.runs - c.pruned, c.outcomes.size(), c.failing,
                  verdict.c_str());
    out += line;
    for (const CampaignClass& k : c.classes)
      out += "  " + std::to_string(k.runs) + " runs  " + k.kind + ": " +
             k.title + "\n    first: " + k.token + "\n";
    runs += c.runs;
    failing_cells += c.classes.empty() ? 0 : 1;
  }
  std::string missing;
  for (int p : m.missing)
    missing += (missing.empty() ? "" : ",") + std::to_string(p);
  std::snprintf(line, sizeof line,
                "campaign: exhaustive, preemption bound %d%s, %zu cells, %ld "
                "runs, %.1f s of search; %ld failing, %ld not finished%s\n",
                r.preemption_bound, r.por ? " (reduced)" : "", r.cells.size(),
                runs, r.seconds, failing_cells, unfinished,
                missing.empty() ? "" : ("; parts missing: " + missing).c_str());
  out += line;
  return out;
}

}  // namespace squashlab
