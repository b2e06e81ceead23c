// This file implements one run of a scenario on any executor.
#include "model/scenario.h"

namespace squashlab {

ScenarioOutcome RunScenario(const Scenario& sc, Executor& exec, uint64_t seed,
                            uint64_t* fingerprint) {
  KernelConfig config = sc.config;
  config.seed = seed;
  ScenarioOutcome out;
  Kernel kernel(config, &exec);
  KernelScope scope(&kernel);
  try {
    sc.setup(kernel);
    out.run = exec.Run(kernel);
    if (out.run.completed) kernel.CheckQuiescence();
  } catch (const TaskOops&) {
    // setup or a quiescence hook hit a report; it is recorded
  }
  if (fingerprint != nullptr) *fingerprint = kernel.StateFingerprint();
  out.report = kernel.report();
  out.reports = kernel.reports();
  return out;
}

}  // namespace squashlab
