// SPDX-License-Identifier: GPL-2.0-only
// This file implements the lists of names the command line accepts, read
// from the model's and the benchmarks' own tables.
#include "cli/model_choices.h"

#include <algorithm>

#include "bench/sim/bench.h"
#include "bench/sim/calibration.h"
#include "harness/linux_mount.h"
#include "harness/scenarios.h"
#include "hw_emul/profile.h"
#include "model/variants/decompressor.h"
#include "model/variants/read_path.h"

namespace squashlab::cli {

std::vector<std::string> VariantNames() {
  std::vector<std::string> out;
  for (const auto* v : AllReadPaths()) out.push_back(v->name);
  for (const auto& v : LinuxVariantNames()) out.push_back(v);
  return out;
}

std::vector<std::string> VariantNamesWithSource() {
  std::vector<std::string> v = VariantNames();
  if (std::find(v.begin(), v.end(), "linux-src") == v.end())
    v.push_back("linux-src");
  return v;
}

std::vector<std::string> DecompNames() {
  std::vector<std::string> out;
  for (const auto* d : AllDecompressors()) out.push_back(d->name);
  return out;
}

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
  for (const DeviceProfile& p : AllProfiles())
    if (FindCpuProfile(p.name) != nullptr) out.push_back(p.name);
  return out;
}

}  // namespace squashlab::cli
