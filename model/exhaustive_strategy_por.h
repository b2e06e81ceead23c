// This file implements the dependency relation of ExhaustiveStrategy's
// partial-order reduction: what shared state a step of the explore
// executor may touch, derived from the operation at its scheduling point
// (StepFootprint), and whether two steps conflict. Unknown operations touch
// everything, so the relation only ever errs towards "dependent".
#ifndef SQUASHLAB_MODEL_EXHAUSTIVE_STRATEGY_POR_H_
#define SQUASHLAB_MODEL_EXHAUSTIVE_STRATEGY_POR_H_

#include <cstdint>

namespace squashlab {

// The objects a step may touch: at most two (class, identity) pairs, or
// everything. Classes with one global object (an allocator, a hashed wait
// queue, task creation) use identity 0.
struct StepFootprint {
  enum Class : uint8_t {
    kNone = 0,
    kPage,       // a struct page, by pfn
    kWaitqueue,  // the hashed wait queues pages, buffers and work share (global)
    kPageAlloc,  // pfn assignment (global)
    kMapping,    // a page-cache slot, by index (files collide: conservative)
    kBuffer,     // a buffer_head, by block number
    kBio,        // a bio, by id
    kBioAlloc,   // bio id assignment (global)
    kSpawn,      // task creation: task ids follow spawn order (global)
    kMutex,      // a mutex, by id
    kSlab,       // kmalloc/kfree: addresses and quarantine (global)
    kStart,      // a task's first step (global; see the .cc)
  };
  bool all = false;  // unknown operation: conflicts with every step
  int n = 0;
  Class cls[2] = {kNone, kNone};
  uint64_t id[2] = {0, 0};
};

// The footprint of the step that starts at the scheduling point (op, arg).
// `op` is the string literal the kernel API passes to Kernel::Point.
StepFootprint FootprintOf(const char* op, uint64_t arg);
bool Conflict(const StepFootprint& a, const StepFootprint& b);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_EXHAUSTIVE_STRATEGY_POR_H_
