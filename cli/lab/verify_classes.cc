// SPDX-License-Identifier: GPL-2.0-only
// This file implements the class view of a verify cell.
#include "cli/lab/verify_classes.h"

namespace squashlab::cli {
namespace {

std::string KernelOf(const std::string& scenario) {
  auto spec = ScenarioSpec::Parse(scenario);
  return spec.ok() && spec->kernel.rfind("prod", 0) == 0 ? "prod" : "debug";
}

FoundClass Make(const std::string& scenario, long first, double seconds,
                const RunResult& found, const RunResult& minimised,
                const RootCause& root) {
  FoundClass c;
  c.kind = ReportKindName(minimised.report.kind);
  c.title = minimised.report.title;
  c.kernel = KernelOf(scenario);
  c.scenario = scenario;
  c.first_schedule = first;
  c.seconds_to_first = seconds;
  c.token = found.Token(scenario).ToString();
  c.minimised_token = minimised.Token(scenario).ToString();
  c.found = &found;
  c.minimised = &minimised;
  c.root = root;
  return c;
}

}  // namespace

std::vector<FoundClass> FoundClasses(const CellResult& cell) {
  std::vector<FoundClass> out;
  for (const ClassFinding& f : cell.classes)
    out.push_back(Make(f.scenario, f.first_run, f.seconds, f.failure,
                       f.minimised, f.root));
  // Stopped at the first failure (--first-only): the class is its own cause.
  if (out.empty() && cell.found)
    out.push_back(Make(cell.scenario, cell.first_failing_run,
                       cell.seconds_to_first, cell.failure, cell.minimised,
                       RootCauseOf(cell.minimised.report)));
  return out;
}

std::string ClassKey(const FoundClass& c) {
  return c.kind == "hung-task" ? c.kind : c.kind + "|" + c.title;
}

std::vector<FoundClass> DistinctClasses(const CellResult& cell) {
  std::vector<FoundClass> out;
  for (const FoundClass& c : FoundClasses(cell)) {
    bool seen = false;
    for (const FoundClass& o : out) seen |= ClassKey(o) == ClassKey(c);
    if (!seen) out.push_back(c);
  }
  return out;
}

std::string MinimisedListing(const FoundClass& c) {
  return FtraceUpToReport(*c.minimised, "minimised schedule of " + c.scenario +
                                            ", up to the report");
}

}  // namespace squashlab::cli
