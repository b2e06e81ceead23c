// SPDX-License-Identifier: GPL-2.0-only
// This file implements the byte-driven strategy. Choices are relative to the
// current task so that a zero byte (and a zero-filled stretch of input, the
// kind a fuzzer inserts) means "no preemption here", and changing one byte
// adds or moves one context switch.
#include "model/sched/bytes_strategy.h"

#include <algorithm>

namespace squashlab {

int BytesStrategy::Pick(const std::vector<int>& enabled, int current,
                        bool current_enabled, long) {
  if (next_ >= bytes_.size())
    return NonPreemptivePick(enabled, current, current_enabled);
  size_t base = 0;
  if (current_enabled) {
    base = static_cast<size_t>(
        std::find(enabled.begin(), enabled.end(), current) - enabled.begin());
  }
  return enabled[(base + bytes_[next_++]) % enabled.size()];
}

}  // namespace squashlab
