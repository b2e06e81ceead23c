// SPDX-License-Identifier: GPL-2.0-only
// This file implements the rows of the `fidelity` scenario: one visible
// figure (or stated range) of the 2013 thread, what the simulation predicts
// for it, the error, whether it is within the target, and the mechanism that
// produces it; and the markdown table that bench/sim/README.md carries
// (generated, checked by //bench/sim:fidelity_md_test).
#ifndef SQUASHLAB_BENCH_SIM_FIDELITY_H_
#define SQUASHLAB_BENCH_SIM_FIDELITY_H_

#include <string>
#include <vector>

#include "bench/sim/bench.h"

namespace squashlab {

struct FidelityRow {
  std::string id;      // stable key, e.g. "kvm-256k-penalty"
  std::string source;  // who says it, where
  std::string thread;  // the thread's words (or its table)
  // A figure (lo == hi) or a stated range [lo, hi]. For a range the
  // prediction is the span [pred_lo, pred_hi] of the cells it covers.
  double lo = 0, hi = 0;
  double pred_lo = 0, pred_hi = 0;
  std::string unit;         // "MB/s", "MiB/s", "%", "count"
  double tolerance = 0.15;  // figures: relative error allowed; <0: factor
  std::string role;         // "calibrated" (a fit target) or "predicted"
  std::string mechanism;

  bool IsRange() const { return lo != hi; }
  // Figures: (predicted - thread) / thread. Ranges: 0 inside, else the
  // relative distance from the nearest bound of the worse end.
  double Error() const;
  bool Within() const;
  BenchRecord Record() const;
};

// The markdown table of a `fidelity` result (from its records).
std::string FidelityMarkdown(const BenchResult& r);

}  // namespace squashlab

#endif  // SQUASHLAB_BENCH_SIM_FIDELITY_H_
