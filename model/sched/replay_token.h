// SPDX-License-Identifier: GPL-2.0-only
// This file implements ReplayToken: one string that reproduces a run
// exactly — "sq1:<strategy>:<seed>:<scenario>:<choices>", the choices
// run-length encoded ("0x3.1.0" is 0,0,0,1,0).
#ifndef SQUASHLAB_MODEL_SCHED_REPLAY_TOKEN_H_
#define SQUASHLAB_MODEL_SCHED_REPLAY_TOKEN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "reader/status.h"

namespace squashlab {

struct ReplayToken {
  std::string strategy;
  uint64_t seed = 0;
  std::string scenario;
  std::vector<int> choices;

  std::string ToString() const;
  static StatusOr<ReplayToken> Parse(const std::string& text);
};

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_SCHED_REPLAY_TOKEN_H_
