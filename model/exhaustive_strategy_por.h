// This file implements the dependency relation of ExhaustiveStrategy's
// partial-order reduction: what shared state a step of the explore
// executor may touch, derived from the operation at its scheduling point
// (StepFootprint), and whether two steps conflict. Unknown operations touch
// everything, so the relation only ever errs towards "dependent".
#ifndef SQUASHLAB_MODEL_EXHAUSTIVE_STRATEGY_POR_H_
#define SQUASHLAB_MODEL_EXHAUSTIVE_STRATEGY_POR_H_

#include <cstdint>

#include "model/strategy.h"

namespace squashlab {

// The objects a step may touch: up to three (class, identity) pairs, or
// everything; and the wait queues it slept on or woke.
struct StepFootprint {
  enum Class : uint8_t {
    kNone = 0,
    kPage,       // a struct page, by pfn
    kPageAlloc,  // pfn assignment (global)
    kMapping,    // a page-cache slot, by index (files collide: conservative)
    kBuffer,     // a buffer_head, by block number
    kBio,        // a bio, by id
    kBioAlloc,   // bio id assignment (global)
    kSpawn,      // task creation: task ids follow spawn order (global)
    kMutex,      // a mutex, by id
    kSlab,       // kmalloc/kfree: addresses and quarantine (global)
    kStart,      // an interrupt handler's first step (global; see the .cc)
    kWork,       // the workqueue's table of queued and running items (global)
  };
  bool all = false;  // unknown operation: conflicts with every step
  int n = 0;
  Class cls[3] = {kNone, kNone, kNone};
  uint64_t id[3] = {0, 0, 0};
  // Wait queues (by address): a step that queued itself on one depends on
  // a step that woke it; two sleepers commute (each adds itself to a list
  // woken whole), and so do two wakers (waking is idempotent).
  int nwaited = 0, nwoke = 0;
  const void* waited[2] = {nullptr, nullptr};
  const void* woke[2] = {nullptr, nullptr};
  bool many_queues = false;  // more than fit: depends on every sleeper/waker

  void Add(Class c, uint64_t identity);
};

// The footprint of one executed step: the operation at its scheduling
// point (`op` is the string literal the kernel API passes to Kernel::Point)
// and what the executor saw it do (wait queues, a worker's exit).
// `irq_starts_commute`: the scenario's interrupt handlers share nothing
// before their first point (the RAM disk without a fault plan: it copies
// the medium into the bio's own pages); otherwise their first steps
// conflict with one another (a fault plan's random sequence, a device's
// state).
StepFootprint FootprintOf(const StepInfo& step, bool irq_starts_commute = false);
bool Conflict(const StepFootprint& a, const StepFootprint& b);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_EXHAUSTIVE_STRATEGY_POR_H_
