// SPDX-License-Identifier: GPL-2.0-only
// This file implements schedule replay.
#include "model/sched/replay_strategy.h"

#include <algorithm>

namespace squashlab {

int ReplayStrategy::Pick(const std::vector<int>& enabled, int current,
                         bool current_enabled, long) {
  if (next_ < choices_.size()) {
    int want = choices_[next_++];
    if (std::find(enabled.begin(), enabled.end(), want) != enabled.end())
      return want;
    diverged_ = true;
  }
  return NonPreemptivePick(enabled, current, current_enabled);
}

}  // namespace squashlab
