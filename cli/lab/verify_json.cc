// SPDX-License-Identifier: GPL-2.0-only
// This file implements verify's JSON output through nlohmann-json
// (ordered_json: keys in the order written, so the output is stable).
#include "cli/lab/verify_json.h"

#include <fstream>
#include <nlohmann/json.hpp>

#include "cli/lab/verify_classes.h"
#include "cli/lab/verify_root_causes.h"
#include "harness/verify/verify.h"

namespace squashlab::cli {
namespace {

using nlohmann::ordered_json;

ordered_json ClassJson(const FoundClass& c,
                       const std::vector<RootCauseGroup>& causes) {
  const RunResult& m = *c.minimised;
  return {{"kind", c.kind},
          {"title", c.title},
          {"kernel", c.kernel},
          {"scenario", c.scenario},
          {"first_schedule", c.first_schedule},
          {"seconds_to_first", c.seconds_to_first},
          {"token", c.token},
          {"minimised_token", c.minimised_token},
          {"minimised_preemptions", m.preemptions},
          {"minimised_steps", m.steps},
          {"report", m.report.ToString()},
          {"schedule", MinimisedListing(c)},
          {"root_cause", GroupNumber(causes, c.root.key)}};
}

ordered_json CauseJson(size_t number, const RootCauseGroup& g) {
  ordered_json titles = ordered_json::array();
  for (const FoundClass& c : g.classes) titles.push_back(c.title);
  ordered_json seed = ordered_json::array();
  for (const SeedOops* o : g.seed_oopses)
    seed.push_back({{"name", o->name}, {"printed", o->printed}});
  return {{"number", number},
          {"description", g.cause.Describe()},
          {"first_kind", g.cause.first_kind},
          {"first_title", g.cause.first_title},
          {"alloc_site", g.cause.alloc_site},
          {"free_site", g.cause.free_site},
          {"titles", std::move(titles)},
          {"cells", g.cells},
          {"seed_oopses", std::move(seed)},
          {"minimised_token", g.classes[g.repro].minimised_token}};
}

ordered_json CellJson(const CellResult& c, const Expectations& expected,
                      const std::vector<RootCauseGroup>& causes) {
  auto it = expected.find(c.variant);
  ordered_json classes = ordered_json::array();
  for (const FoundClass& f : FoundClasses(c))
    classes.push_back(ClassJson(f, causes));
  return {{"variant", c.variant},
          {"decomp", c.decomp},
          {"schedules", c.runs},
          {"distinct", c.distinct},
          {"pruned", c.pruned},
          {"exhausted", c.exhausted},
          {"seconds", c.seconds},
          {"verdict", c.found ? "fail" : "clean"},
          {"expected", it != expected.end() && it->second ? "fail" : "clean"},
          {"classes", std::move(classes)}};
}

}  // namespace

std::string VerifyJson(const VerifyResult& r, const VerifyOptions& opt,
                       const Expectations& expected) {
  const std::vector<RootCauseGroup> causes = GroupByRootCause(r);
  ordered_json cells = ordered_json::array();
  for (const CellResult& c : r.cells)
    cells.push_back(CellJson(c, expected, causes));
  ordered_json root_causes = ordered_json::array();
  for (size_t i = 0; i < causes.size(); i++)
    root_causes.push_back(CauseJson(i + 1, causes[i]));
  ordered_json j = {
      {"strategy", opt.strategy},  {"faults", opt.faults},
      {"device", opt.device},      {"seed", opt.seed},
      {"budget", opt.budget},      {"seconds", r.seconds},
      {"cells", std::move(cells)}, {"root_causes", std::move(root_causes)}};
  return j.dump(2) + "\n";
}

Status WriteVerifyJson(const std::string& path, const VerifyResult& r,
                       const VerifyOptions& opt, const Expectations& expected) {
  std::ofstream out(path, std::ios::binary);
  out << VerifyJson(r, opt, expected);
  out.close();
  if (!out) return Status::IoError("cannot write the JSON");
  return Status::Ok();
}

}  // namespace squashlab::cli
