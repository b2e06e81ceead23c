// SPDX-License-Identifier: GPL-2.0-only
// This file implements the grouping of failure classes by root cause.
#include "cli/lab/verify_root_causes.h"

#include <algorithm>

namespace squashlab::cli {
namespace {

template <typename T>
void AddOnce(std::vector<T>* v, const T& x) {
  if (std::find(v->begin(), v->end(), x) == v->end()) v->push_back(x);
}

RootCauseGroup* GroupOf(std::vector<RootCauseGroup>* groups,
                        const RootCause& cause) {
  for (RootCauseGroup& g : *groups)
    if (g.cause.key == cause.key) return &g;
  groups->push_back({});
  groups->back().cause = cause;
  return &groups->back();
}

void AddClass(RootCauseGroup* g, const FoundClass& c) {
  for (size_t i = 0; i < g->classes.size(); i++) {
    if (ClassKey(g->classes[i]) != ClassKey(c)) continue;
    if (c.minimised_token.size() < g->classes[i].minimised_token.size())
      g->classes[i] = c;  // the same class's shorter token
    return;
  }
  g->classes.push_back(c);
  for (const SeedOops* o : SeedOopsesOf(c.title)) AddOnce(&g->seed_oopses, o);
}

}  // namespace

std::vector<RootCauseGroup> GroupByRootCause(const VerifyResult& r) {
  std::vector<RootCauseGroup> groups;
  for (const CellResult& cell : r.cells)
    for (const FoundClass& c : DistinctClasses(cell)) {
      RootCauseGroup* g = GroupOf(&groups, c.root);
      AddClass(g, c);
      AddOnce(&g->cells, cell.variant + " x " + cell.decomp);
    }
  for (RootCauseGroup& g : groups)
    for (size_t i = 0; i < g.classes.size(); i++)
      if (g.classes[i].minimised_token.size() <
          g.classes[g.repro].minimised_token.size())
        g.repro = i;
  std::stable_sort(groups.begin(), groups.end(),
                   [](const RootCauseGroup& a, const RootCauseGroup& b) {
                     return a.classes.size() > b.classes.size();
                   });
  return groups;
}

std::vector<std::string> MergedTitles(const std::vector<FoundClass>& classes) {
  std::vector<std::string> prefixes;  // in order first seen
  std::vector<std::vector<std::string>> functions;
  for (const FoundClass& c : classes) {
    const size_t in = c.title.rfind(" in ");
    const bool has_fn = in != std::string::npos && c.kind != "hung-task";
    const std::string prefix = has_fn ? c.title.substr(0, in) : c.title;
    size_t i =
        std::find(prefixes.begin(), prefixes.end(), prefix) - prefixes.begin();
    if (i == prefixes.size()) {
      prefixes.push_back(prefix);
      functions.emplace_back();
    }
    if (has_fn) AddOnce(&functions[i], c.title.substr(in + 4));
  }
  std::vector<std::string> out;
  for (size_t i = 0; i < prefixes.size(); i++) {
    std::string line = prefixes[i];
    for (size_t f = 0; f < functions[i].size(); f++)
      line += (f == 0 ? " in " : ", ") + functions[i][f];
    out.push_back(line);
  }
  return out;
}

size_t GroupNumber(const std::vector<RootCauseGroup>& groups,
                   const std::string& key) {
  for (size_t i = 0; i < groups.size(); i++)
    if (groups[i].cause.key == key) return i + 1;
  return 0;
}

}  // namespace squashlab::cli
