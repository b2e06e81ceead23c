// SPDX-License-Identifier: GPL-2.0-only
// This file implements one run of a scenario on any executor.
#include "model/kernel/scenario.h"

#include "model/kernel/api_footprints.h"
#include "model/sched/task_fault.h"

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
    out.run = exec.Run();
    // The quiescence hooks run code under test (a real tree's unmount)
    // outside every task: a host fault there lands as an oops too.
    if (out.run.completed)
      RunTaskBodyOnThreadStack([&kernel] { kernel.CheckQuiescence(); });
  } catch (const TaskOops&) {
    // setup or a quiescence hook hit a report; it is recorded
  }
  // An abandoned run's state is no outcome (and hashing it was most of
  // what an exhaustive search spent beside the runs themselves).
  if (fingerprint != nullptr)
    *fingerprint = exec.abandoned() ? 0 : kernel.StateFingerprint();
  out.report = kernel.report();
  out.reports = kernel.reports();
  return out;
}

Scenario::operator RunSpec() const {
  RunSpec spec;
  spec.name = name;
  Scenario campaign = *this;
  if (!campaign.config.lockdep)  // one graph for every run of the campaign
    campaign.config.lockdep = std::make_shared<LockdepGraph>();
  spec.run = [sc = std::move(campaign)](Executor& exec, uint64_t seed,
                                        uint64_t* fingerprint) {
    return RunScenario(sc, exec, seed, fingerprint);
  };
  spec.footprint = [irq = irq_starts_commute,
                    reuses = !config.debug](const StepInfo& step) {
    return FootprintOf(step, irq, reuses);
  };
  return spec;
}

}  // namespace squashlab
