// SPDX-License-Identifier: GPL-2.0-only
// This file implements ScenarioBuilder: a scenario put together from parts
// for runs that are not verify's named ones — benchmarks and experiments.
// It takes a read path (a hand-written variant or real kernel code) and a
// decompressor strategy (or a hand-made one), a device (the RAM disk, or
// an hw_emul part's profile), a kernel (CPUs, PREEMPT_RT, a step limit),
// counters around the read path's and the strategy's calls, and the
// workloads that spawn the run's tasks once the file system is mounted
// (harness/workloads.h). Simulate runs it once in the simulate executor
// (virtual time, deterministic) and returns its report, end time and
// counters; Build gives the Scenario for the explore executor.
#ifndef SQUASHLAB_HARNESS_SCENARIO_BUILDER_H_
#define SQUASHLAB_HARNESS_SCENARIO_BUILDER_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/image_model.h"
#include "harness/scenario_spec.h"
#include "model/base/report.h"
#include "model/sched/cost_model.h"
#include "reader/status.h"

namespace squashlab {

struct ScenarioProbes;
struct SquashfsDecompressorOps;

// Around the read path's entries (squashfs_readpage's block part,
// ->readpages, ->readahead) and the strategy's decompress calls.
struct CallCounters {
  uint64_t readpage_calls = 0;
  uint64_t readpage_io_in_flight = 0;  // entered while bios were in flight
  uint64_t max_bios_in_flight = 0;     // seen at a read-path entry
  uint64_t decompress_calls = 0;
  uint64_t decompressed_bytes = 0;
};

// The hw_emul device's counters at quiescence (zero on the RAM disk).
struct DeviceTotals {
  uint64_t requests = 0;
  uint64_t merges = 0;  // bios merged into a request, and requests joined
  uint64_t bytes = 0;
  uint64_t fetch = 0;  // host loop iterations with work
  uint64_t idle = 0;   // host loop iterations that found none
  uint64_t busy_ns = 0;
};

// The workqueue: items run, and queue_work -> the worker running.
struct WorkqueueTotals {
  uint64_t items = 0;
  uint64_t delay_total_ns = 0;
  uint64_t delay_max_ns = 0;
};

struct SimulatedRun {
  ScenarioOutcome outcome;  // report(s), completed, end time
  CallCounters calls;       // with CountCalls
  DeviceTotals device;
  WorkqueueTotals workqueue;
  bool ok() const { return outcome.ok(); }
};

class ScenarioBuilder {
 public:
  explicit ScenarioBuilder(std::shared_ptr<const ImageModel> image);

  ScenarioBuilder& Name(std::string name);
  // A read path (hand-written or linux-*) and a strategy by name.
  ScenarioBuilder& ReadPath(std::string variant, std::string decomp);
  // A hand-made strategy in place of the named one (hand-written paths).
  ScenarioBuilder& Decompressor(const SquashfsDecompressorOps* ops);
  // "profile[,bs=N]" (ScenarioSpec::device); "" the RAM disk.
  ScenarioBuilder& Device(std::string device);
  // The RAM disk's time per request (unset: its default).
  ScenarioBuilder& RamDiskLatency(uint64_t ns);
  ScenarioBuilder& Cpus(int ncpus);
  ScenarioBuilder& PreemptRt(bool on);
  ScenarioBuilder& MaxSteps(uint64_t steps);
  ScenarioBuilder& CountCalls();
  // Spawns tasks once the file system is mounted; in the order added.
  ScenarioBuilder& Workload(ScenarioObserver spawn);

  // The scenario, for the explore executor (counters are not kept).
  StatusOr<Scenario> Build() const;
  // One run in the simulate executor with `cost`, seed 1.
  StatusOr<SimulatedRun> Simulate(const CostModel& cost) const;

 private:
  StatusOr<Scenario> BuildWith(std::shared_ptr<ScenarioProbes> probes) const;

  std::shared_ptr<const ImageModel> image_;
  std::string name_ = "custom";
  std::string variant_ = "sync-3.13";
  std::string decomp_ = "single";
  const SquashfsDecompressorOps* decomp_ops_ = nullptr;
  std::string device_;
  std::optional<uint64_t> ram_disk_latency_ns_;
  int ncpus_ = 2;
  bool preempt_rt_ = false;
  uint64_t max_steps_ = 0;
  bool count_calls_ = false;
  std::vector<ScenarioObserver> workloads_;
};

}  // namespace squashlab

#endif  // SQUASHLAB_HARNESS_SCENARIO_BUILDER_H_
