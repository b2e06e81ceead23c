// SPDX-License-Identifier: GPL-2.0-only
// This file implements the root cause of a failure class.
#include "harness/root_cause.h"

#include <sstream>

#include "model/kernel/scenario.h"
#include "model/sched/explorer.h"
#include "model/sched/replay_strategy.h"

namespace squashlab {
namespace {

// The innermost caller of a stack KASAN prints under `header` ("Allocated
// by task T:" then one frame a line, the allocator first, each indented):
// its last frame, or "" when the body has no such stack.
std::string StackSite(const std::string& body, const std::string& header) {
  size_t at = body.find(header);
  if (at == std::string::npos) return "";
  std::istringstream lines(body.substr(body.find('\n', at) + 1));
  std::string line, site;
  while (std::getline(lines, line) && !line.empty() && line[0] == ' ')
    site = line.substr(line.find_first_not_of(' '));
  return site;
}

bool NamesFreedObject(const Report& r) {
  return !StackSite(r.body, "Freed by task ").empty();
}

}  // namespace

std::string RootCause::Describe() const {
  if (free_site.empty()) return first_title;
  return "an object allocated in " + alloc_site + " and freed in " + free_site +
         ", then used";
}

RootCause RootCauseOf(const Report& first) {
  RootCause c;
  c.first_kind = ReportKindName(first.kind);
  c.first_title = first.title;
  c.alloc_site = StackSite(first.body, "Allocated by task ");
  c.free_site = StackSite(first.body, "Freed by task ");
  if (!c.free_site.empty())
    c.key = "freed|" + c.alloc_site + "|" + c.free_site;
  else  // a hang is one cause whichever task hung
    c.key = first.kind == ReportKind::kHungTask
                ? "first|" + c.first_kind
                : "first|" + c.first_kind + "|" + c.first_title;
  return c;
}

RootCause FindRootCause(Explorer& e, const Scenario& sc,
                        const RunResult& minimised) {
  RunResult debug_run;
  const RunResult* run = &minimised;
  if (!sc.config.debug) {
    Scenario debug = sc;
    debug.config.debug = true;
    debug.config.lockdep = nullptr;  // a graph of the replay's own
    ReplayStrategy replay(minimised.choices);
    debug_run = e.RunOnce(debug, replay, minimised.seed, false);
    run = &debug_run;
  }
  if (run->reports.empty()) return RootCauseOf(minimised.report);
  // Warnings do not end a run: a freed object that a later report of the
  // run names (KASAN on the object that an earlier warning's free left
  // behind) is the cause, else the first report.
  const Report* cause = &run->reports.front();
  for (const Report& r : run->reports)
    if (NamesFreedObject(r)) {
      cause = &r;
      break;
    }
  RootCause c = RootCauseOf(*cause);
  c.replayed_on_debug = run == &debug_run;
  return c;
}

}  // namespace squashlab
