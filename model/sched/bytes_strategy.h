// SPDX-License-Identifier: GPL-2.0-only
// This file implements BytesStrategy: a scheduler driven by a byte string
// (a fuzzer's input), one byte per choice point. Byte b picks the enabled
// task b places after the current one, so 0 keeps the current task running
// (the non-preemptive default) and any other value preempts it; when the
// bytes run out the run goes on non-preemptively.
#ifndef SQUASHLAB_MODEL_SCHED_BYTES_STRATEGY_H_
#define SQUASHLAB_MODEL_SCHED_BYTES_STRATEGY_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "model/sched/strategy.h"

namespace squashlab {

class BytesStrategy : public Strategy {
 public:
  // Keeps a copy of `bytes`; every run starts again from the first byte.
  explicit BytesStrategy(std::span<const uint8_t> bytes)
      : bytes_(bytes.begin(), bytes.end()) {}
  std::string Name() const override { return "bytes"; }
  bool WantsSteps() const override { return false; }
  void BeginRun(uint64_t) override { next_ = 0; }
  int Pick(const std::vector<int>& enabled, int current, bool current_enabled,
           long) override;
  // Choice points that consumed a byte in the current (or last) run.
  size_t consumed() const { return next_; }

 private:
  std::vector<uint8_t> bytes_;
  size_t next_ = 0;
};

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_SCHED_BYTES_STRATEGY_H_
