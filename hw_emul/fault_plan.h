// SPDX-License-Identifier: GPL-2.0-only
// This file implements FaultPlan: the device faults of one run as data that
// serialises to and from a short string (a field of replay tokens, so it
// never contains ':'), and the site-keyed draws that decide each fault in
// the spirit of FoundationDB's BUGGIFY: a decision depends only on the
// seed, the fault site and the site's key (the request's first sector and
// how many times that sector was seen at the site), never on how many
// other draws were made, so it survives unrelated schedule changes.
#ifndef SQUASHLAB_HW_EMUL_FAULT_PLAN_H_
#define SQUASHLAB_HW_EMUL_FAULT_PLAN_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "reader/status.h"

namespace squashlab {

struct SectorRange {
  uint64_t first = 0;
  uint64_t last = 0;  // inclusive
  bool operator==(const SectorRange&) const = default;
};

// Grammar: items joined by ';', each "key=value" or "key@sector=A[-B]":
//   eio@sector=A[-B]  every bio touching these sectors fails with -EIO
//   eio=P             each bio fails with -EIO with probability P
//   reada_drop=P      a READA bio is refused ("failed READA attempts") with
//                     probability P when the queue is congested
//   congest=N         congested = at least N requests queued or in flight
//                     (default 0: always)
//   flip@sector=A[-B] one bit of the first of these sectors a bio reads is
//                     flipped (silently: the bio completes without error)
//   flip=P            each bio gets one flipped bit with probability P
//   delay=P           a request's completion interrupt comes delay_us late
//   delay_us=N        (default 1000)
//   reorder=P         a request's completion comes after the next two
//                     requests' (late by twice its own service time + 1 ns)
//   short=P           a request transfers only a prefix: bios past the short
//                     point complete with -EIO, their data untouched
//   seed=N            the draws' seed (default: the run's KernelConfig seed)
// "" and "none" are the empty plan. ToString() is canonical (a fixed order,
// defaults left out) and Parse(ToString()) == the plan.
struct FaultPlan {
  std::vector<SectorRange> eio_sectors;
  double eio = 0;
  double reada_drop = 0;
  uint64_t congest = 0;
  std::vector<SectorRange> flip_sectors;
  double flip = 0;
  double delay = 0;
  uint64_t delay_us = 1000;
  double reorder = 0;
  double short_completion = 0;
  std::optional<uint64_t> seed;

  bool empty() const;
  // Whether a read under this plan may end in an error (EIO, a refused
  // READA, a short completion) or see a flipped bit; delays and reordering
  // alone cannot cost a byte.
  bool can_fail() const;
  std::string ToString() const;
  static StatusOr<FaultPlan> Parse(const std::string& text);
  bool operator==(const FaultPlan&) const = default;
};

enum class FaultSite : uint64_t {
  kEio = 1,
  kReadaDrop,
  kFlip,
  kFlipBit,
  kDelay,
  kReorder,
  kShort,
  kShortPoint,
};

// The deterministic draws of a plan. Thread-compatible (pure functions).
class FaultDraw {
 public:
  explicit FaultDraw(uint64_t seed) : seed_(seed) {}
  // A uniform 64-bit value for (site, key, nth).
  uint64_t Value(FaultSite site, uint64_t key, uint64_t nth) const;
  // True with probability p.
  bool Fires(double p, FaultSite site, uint64_t key, uint64_t nth) const;
  // Uniform in [0, n). REQUIRES: n > 0.
  uint64_t Below(uint64_t n, FaultSite site, uint64_t key, uint64_t nth) const {
    return Value(site, key, nth) % n;
  }

 private:
  uint64_t seed_;
};

}  // namespace squashlab

#endif  // SQUASHLAB_HW_EMUL_FAULT_PLAN_H_
