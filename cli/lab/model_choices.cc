// SPDX-License-Identifier: GPL-2.0-only
// This file implements the lists of names the command line accepts, read
// from the model's and the benchmarks' own tables.
#include "cli/lab/model_choices.h"

#include <algorithm>

#include "bench/sim/bench.h"
#include "bench/sim/calibration.h"
#include "harness/model_names.h"
#include "harness/scenario_spec.h"

namespace squashlab::cli {

std::vector<std::string> VariantNames() { return ReadPathNames(); }

std::vector<std::string> VariantNamesWithSource() {
  std::vector<std::string> v = VariantNames();
  if (std::find(v.begin(), v.end(), "linux-src") == v.end())
    v.push_back("linux-src");
  return v;
}

std::vector<std::string> DecompNames() { return DecompressorNames(); }

std::vector<std::string> WorkloadNames() {
  std::vector<std::string> out;
  for (const auto& [name, what] : Workloads()) out.push_back(name);
  return out;
}

std::vector<std::string> BenchScenarioNames() {
  std::vector<std::string> out;
  for (const auto& [name, what] : BenchScenarios()) out.push_back(name);
  return out;
}

std::vector<std::string> BenchProfileNames() {
  std::vector<std::string> out;
  for (const std::string& p : DeviceProfileNames())
    if (FindCpuProfile(p) != nullptr) out.push_back(p);
  return out;
}

}  // namespace squashlab::cli
