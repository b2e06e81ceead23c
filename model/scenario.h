// This file implements Scenario: a named, replayable setup of one run — the
// kernel configuration and a function that creates the objects, spawns the
// tasks and registers the run's quiescence oracle (Kernel::AtQuiescence).
#ifndef SQUASHLAB_MODEL_SCENARIO_H_
#define SQUASHLAB_MODEL_SCENARIO_H_

#include <functional>
#include <string>

#include "model/kernel.h"

namespace squashlab {

struct Scenario {
  std::string name;  // no ':' (it is a field of replay tokens)
  KernelConfig config;
  std::function<void(Kernel&)> setup;
};

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_SCENARIO_H_
