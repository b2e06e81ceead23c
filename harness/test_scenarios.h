// SPDX-License-Identifier: GPL-2.0-only
// This file implements the helpers the verify tests share: the embedded
// image, the scenarios of one variant x strategy over some workloads, and
// the check that cells run clean on the default workloads.
#ifndef SQUASHLAB_HARNESS_TEST_SCENARIOS_H_
#define SQUASHLAB_HARNESS_TEST_SCENARIOS_H_

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "harness/scenario_spec.h"
#include "harness/verify/verify.h"

namespace squashlab {

// An exhaustive search of one variant x single on the `pair` workload.
inline VerifyOptions ExhaustivePair(const std::string& variant, int bound,
                                    std::vector<std::string> kernels) {
  VerifyOptions v;
  v.variants = {variant};
  v.decomps = {"single"};
  v.workloads = {"pair"};
  v.kernels = std::move(kernels);
  v.strategy = "exhaustive";
  v.preemption_bound = bound;
  return v;
}

inline std::shared_ptr<const ImageModel> Image() {
  auto img = DefaultImage();
  EXPECT_TRUE(img.ok()) << img.status().ToString();
  return img.value();
}

inline std::vector<Scenario> Scenarios(
    const std::string& v, const std::string& d,
    const std::vector<std::string>& workloads, const std::string& faults = "",
    std::shared_ptr<const ImageModel> img = nullptr,
    const std::string& device = "", const std::string& kernel = "") {
  std::vector<Scenario> out;
  for (const auto& w : workloads) {
    auto sc = MakeScenario(ScenarioSpec{v, d, w, faults, device, kernel, ""},
                           img ? img : Image());
    EXPECT_TRUE(sc.ok()) << sc.status().ToString();
    if (sc.ok()) out.push_back(sc.value());
  }
  return out;
}

// Every variant x decompressor cell, explored `budget` times over the
// default workloads, must run every schedule and find nothing.
inline void ExpectCleanOnDefaultWorkloads(
    const std::vector<std::string>& variants,
    const std::vector<std::string>& decomps, long budget) {
  VerifyOptions opt;
  opt.budget = budget;
  for (const auto& v : variants) {
    for (const auto& d : decomps) {
      CellResult c =
          ExploreScenarios(Scenarios(v, d, DefaultWorkloads()), opt, 0);
      EXPECT_FALSE(c.found) << v << " x " << d << "\n"
                            << c.minimised.report.ToString();
      EXPECT_EQ(c.runs, budget);
    }
  }
}

}  // namespace squashlab

#endif  // SQUASHLAB_HARNESS_TEST_SCENARIOS_H_
