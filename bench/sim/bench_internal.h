// SPDX-License-Identifier: GPL-2.0-only
// This file implements what the scenario files of bench/ share: running a
// list of dd cells (on one or more threads, results in list order), the
// record of a cell, and number formatting.
#ifndef SQUASHLAB_BENCH_SIM_BENCH_INTERNAL_H_
#define SQUASHLAB_BENCH_SIM_BENCH_INTERNAL_H_

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "bench/sim/bench.h"
#include "bench/sim/bench_image.h"
#include "bench/sim/calibration.h"
#include "bench/sim/dd_cell.h"

namespace squashlab {

struct FidelityRow;

struct ImageModel;

struct CellJob {
  std::shared_ptr<const ImageModel> image;
  CellSpec spec;
  CostModel cost;
  BenchImageSpec image_spec;  // for the record
};

std::vector<CellResult> RunCells(const std::vector<CellJob>& jobs, int threads,
                                 std::ostream* progress);
BenchRecord CellRecord(const CellJob& job, const CellResult& r);
std::string Fixed(double v, int decimals);
std::string SizeName(uint64_t bytes);  // "4K", "1024K"
// The CPU profile named `profile`, else an error naming the known ones.
StatusOr<CpuProfile> CpuFor(const std::string& profile);
std::string CacheDir(const BenchOptions& opt);
BenchRecord CalibrationRecord(const CpuProfile& cpu, const CostModel& cost);

// What every dd scenario starts from: the result named for the scenario and
// its profile (--profile or `default_profile`), the profile's CPU, and its
// cost model for `content`, recorded in the result's setup.
struct ScenarioStart {
  BenchResult res;
  CpuProfile cpu;
  CostModel cost;
};
StatusOr<ScenarioStart> StartScenario(const BenchOptions& opt,
                                      const std::string& scenario,
                                      const std::string& default_profile,
                                      ContentKind content);

StatusOr<BenchResult> RunPhillip(const BenchOptions& opt,
                                 std::ostream* progress);
StatusOr<BenchResult> RunEmmc(const BenchOptions& opt, std::ostream* progress);
StatusOr<BenchResult> RunUsb(const BenchOptions& opt, std::ostream* progress);
StatusOr<BenchResult> RunRtLatencyBench(const BenchOptions& opt,
                                        std::ostream* progress);
StatusOr<BenchResult> RunBlocksize(const BenchOptions& opt,
                                   std::ostream* progress);
StatusOr<BenchResult> RunFidelity(const BenchOptions& opt,
                                  std::ostream* progress);
// The fidelity rows of the 2018 RT thread (fidelity_rt.cc).
Status AddRtRows(const BenchOptions& opt, std::vector<FidelityRow>* rows);

}  // namespace squashlab

#endif  // SQUASHLAB_BENCH_SIM_BENCH_INTERNAL_H_
