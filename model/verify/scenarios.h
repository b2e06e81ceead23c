// This file implements the scenarios of squashlab verify: a ScenarioSpec
// (variant, decompressor strategy, workload, fault plan) names one
// replayable Scenario — "variant/decomp/workload[/faults]", the name a
// replay token carries — and MakeScenario builds it over an ImageModel:
// mount, workload tasks, fault plan, and the quiescence release.
#ifndef SQUASHLAB_MODEL_VERIFY_SCENARIOS_H_
#define SQUASHLAB_MODEL_VERIFY_SCENARIOS_H_

#include <memory>
#include <string>
#include <vector>

#include "model/scenario.h"
#include "model/variants/image_model.h"
#include "reader/status.h"

namespace squashlab {

struct ScenarioSpec {
  std::string variant = "sync-3.13";
  std::string decomp = "single";
  std::string workload = "dd2";
  std::string faults;  // "", "eio", "reada", "bitflip"

  std::string Name() const;
  static StatusOr<ScenarioSpec> Parse(const std::string& name);
};

// The workloads, with one line each of what they run.
const std::vector<std::pair<std::string, std::string>>& Workloads();
// The workloads of the default job, and the small exhaustive one.
const std::vector<std::string>& DefaultWorkloads();
inline constexpr const char* kSmallWorkload = "pair";
const std::vector<std::string>& FaultPlans();

StatusOr<Scenario> MakeScenario(const ScenarioSpec& spec, std::shared_ptr<const ImageModel> image);

// The embedded default image (built by mksquashfs at build time), decoded.
StatusOr<std::shared_ptr<const ImageModel>> DefaultImage();
StatusOr<std::shared_ptr<const ImageModel>> LoadImage(const std::string& path);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_VERIFY_SCENARIOS_H_
