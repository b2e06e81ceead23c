// This file implements `squashlab repro TOKEN [--image IMG] [--trace-out FILE]`:
// replays one failure exactly from its replay token and prints its report
// and schedule (optionally as a Chrome trace JSON, viewable in Perfetto).
#include <iostream>
#include <string>
#include <vector>

#include "model/sched/schedule_trace.h"
#include "harness/verify.h"

namespace squashlab::cli {

int RunReproCommand(const std::vector<std::string>& args) {
  std::string token, image, trace_out;
  for (size_t i = 0; i < args.size(); i++) {
    if (args[i] == "--trace-out" && i + 1 < args.size()) trace_out = args[++i];
    else if (args[i] == "--image" && i + 1 < args.size()) image = args[++i];
    else if (token.empty() && args[i].rfind("sq1:", 0) == 0) token = args[i];
    else {
      std::cerr << "usage: squashlab repro TOKEN [--image IMG] [--trace-out FILE]\n";
      return 2;
    }
  }
  if (token.empty()) {
    std::cerr << "usage: squashlab repro TOKEN [--image IMG] [--trace-out FILE]\n";
    return 2;
  }
  auto r = squashlab::Repro(token, image, true);
  if (!r.ok()) {
    std::cerr << "squashlab repro: " << r.status().ToString() << "\n";
    return 2;
  }
  const squashlab::RunResult& run = r.value();
  if (!run.failed()) std::cout << "no violation in this schedule\n";
  for (const squashlab::Report& rep : run.reports) std::cout << rep.ToString();  // in order: a run goes on after a warning
  std::cout << run.trace.Ftrace("replay of " + token);
  if (!trace_out.empty() && !squashlab::WriteChromeTrace(trace_out, run.trace, run.report)) {
    std::cerr << "squashlab repro: cannot write " << trace_out << "\n";
    return 4;
  }
  return run.failed() ? 1 : 0;
}

}  // namespace squashlab::cli
