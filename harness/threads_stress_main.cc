// SPDX-License-Identifier: GPL-2.0-only
// This file implements the threads-executor stress run of one scenario:
// `threads_stress_main SCENARIO RUNS` runs it RUNS times on real threads
// (the device completing from its own interrupt thread) and prints the
// first report; exit 0 when every run was clean, 1 on a report. Under
// --config=tsan a data race ends the process with ThreadSanitizer's report.
#include <cstdio>
#include <cstdlib>

#include "harness/scenario_spec.h"
#include "model/kernel/scenario.h"
#include "model/sched/threads_executor.h"

int main(int argc, char** argv) {
  using namespace squashlab;
  if (argc < 3) {
    std::fprintf(stderr, "usage: threads_stress_main SCENARIO RUNS\n");
    return 2;
  }
  auto spec = ScenarioSpec::Parse(argv[1]);
  auto img = DefaultImage();
  if (!spec.ok() || !img.ok()) return 2;
  auto sc = MakeScenario(spec.value(), img.value());
  if (!sc.ok()) return 2;
  int runs = std::atoi(argv[2]);
  for (int run = 1; run <= runs; run++) {
    ThreadsOptions opt;
    opt.seed = static_cast<uint64_t>(run);
    ThreadsExecutor exec(opt);
    ScenarioOutcome out =
        RunScenario(sc.value(), exec, static_cast<uint64_t>(run));
    if (!out.report.empty()) {
      std::printf("run %d: %s", run, out.report.ToString().c_str());
      return 1;
    }
  }
  std::printf("threads_stress: %d runs clean\n", runs);
  return 0;
}
