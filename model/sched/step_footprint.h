// SPDX-License-Identifier: GPL-2.0-only
// This file implements the dependency relation of ExhaustiveStrategy's
// partial-order reduction: the shared state a step may touch (StepFootprint)
// and whether two steps conflict. What an operation touches is the system's
// knowledge, not the scheduler's: a RunSpec hands the strategy a
// FootprintFn (the kernel's table is model/kernel/api_footprints.h). A step
// without a footprint touches everything, so the relation only ever errs
// towards "dependent".
#ifndef SQUASHLAB_MODEL_SCHED_STEP_FOOTPRINT_H_
#define SQUASHLAB_MODEL_SCHED_STEP_FOOTPRINT_H_

#include <cstdint>
#include <functional>

#include "model/sched/strategy.h"

namespace squashlab {

// The objects a step may touch: up to three (class, identity, fields)
// triples, or everything; and the wait queues it slept on or woke.
struct StepFootprint {
  // A class of object, numbered by the system (0: none).
  using Class = uint8_t;
  // Fields of an object, as bits (the system names them). Two accesses to
  // one object conflict when their fields meet and one of them writes there
  // (two reads commute).
  static constexpr uint8_t kAllFields = 0xff;
  // A reference count: two gets commute, and so do two puts that are not
  // the last (the last one has a wide effect) and two reads; a get and a
  // put do not (get-then-put from 1 is fine, put-then-get frees the object
  // first), nor a read and a change. kRefRead (= both) differs from each.
  enum RefKind : uint8_t { kNoRef = 0, kRefGet = 1, kRefPut = 2, kRefRead = 3 };
  bool all = false;  // unknown operation: conflicts with every step
  int n = 0;
  Class cls[3] = {0, 0, 0};
  uint64_t id[3] = {0, 0, 0};
  uint8_t fields[3] = {0, 0, 0};                // read or written
  uint8_t writes[3] = {0, 0, 0};                // written (a subset of fields)
  uint8_t ref[3] = {0, 0, 0};                   // RefKind
  bool zero_is_all[3] = {false, false, false};  // identity 0 stands for all
  // Wait queues (by address): a step that queued itself on one depends on
  // a step that woke it; two sleepers commute (each adds itself to a list
  // woken whole), and so do two wakers (waking is idempotent).
  int nwaited = 0, nwoke = 0;
  const void* waited[2] = {nullptr, nullptr};
  const void* woke[2] = {nullptr, nullptr};
  bool many_queues = false;  // more than fit: depends on every sleeper/waker

  // One touched object. `counted`: the class has a reference count, and
  // `r` says what the step does to it (the whole object, kAllFields
  // written, includes the count).
  void Add(Class c, uint64_t identity, uint8_t f = kAllFields,
           uint8_t w = kAllFields, uint8_t r = kRefRead, bool counted = false,
           bool zero_all = false);
  // The wait queues the executor saw the step sleep on and wake.
  void AddWaits(const StepInfo& step);
};

// What a step touches, as the system under test knows it.
using FootprintFn = std::function<StepFootprint(const StepInfo&)>;

bool Conflict(const StepFootprint& a, const StepFootprint& b);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_SCHED_STEP_FOOTPRINT_H_
