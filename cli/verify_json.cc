// SPDX-License-Identifier: GPL-2.0-only
// This file implements verify's JSON output through nlohmann-json
// (ordered_json: keys in the order written, so the output is stable).
#include "cli/verify_json.h"

#include <fstream>
#include <nlohmann/json.hpp>

#include "cli/verify_classes.h"
#include "harness/verify.h"

namespace squashlab::cli {
namespace {

using nlohmann::ordered_json;

ordered_json ClassJson(const FoundClass& c) {
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
          {"schedule", MinimisedListing(c)}};
}

ordered_json CellJson(const CellResult& c, const Expectations& expected) {
  auto it = expected.find(c.variant);
  ordered_json classes = ordered_json::array();
  for (const FoundClass& f : FoundClasses(c)) classes.push_back(ClassJson(f));
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
  ordered_json cells = ordered_json::array();
  for (const CellResult& c : r.cells) cells.push_back(CellJson(c, expected));
  ordered_json j = {{"strategy", opt.strategy}, {"faults", opt.faults},
                    {"device", opt.device},     {"seed", opt.seed},
                    {"budget", opt.budget},     {"seconds", r.seconds},
                    {"cells", std::move(cells)}};
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
