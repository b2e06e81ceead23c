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

// The objects a step may touch: up to three (class, identity, fields)
// triples, or everything; and the wait queues it slept on or woke.
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
    kSlab,       // a slab cache, by object size (0: every cache)
    kStart,      // an interrupt handler's first step (global; see the .cc)
    kWork,       // a work item, by its id (0: the whole table)
  };
  // Fields of a struct page or buffer_head (other classes: kAllFields).
  // Two accesses to one object conflict when their fields meet and one of
  // them writes there (two reads of a flag commute).
  enum Field : uint8_t {
    kLockBit = 1,      // PG_locked / BH_Lock (and what they publish)
    kUptodateBit = 2,  // PG_uptodate / BH_Uptodate
    kErrorBit = 4,     // PG_error
    kOtherBits = 8,    // PG_readahead, PG_lru, PG_dirty / BH_Req, BH_Mapped
    kAllFields = 0xff,
  };
  // The reference count (_count / b_count) of a page or buffer_head: two
  // gets commute, and so do two puts that are not the last (the last one
  // has a wide effect) and two reads; a get and a put do not (get-then-put
  // from 1 is fine, put-then-get frees the object first), nor a read and a
  // change. Kinds: kRefGet, kRefPut, kRefRead (= both: differs from each).
  enum RefKind : uint8_t { kNoRef = 0, kRefGet = 1, kRefPut = 2, kRefRead = 3 };
  bool all = false;  // unknown operation: conflicts with every step
  int n = 0;
  Class cls[3] = {kNone, kNone, kNone};
  uint64_t id[3] = {0, 0, 0};
  uint8_t fields[3] = {0, 0, 0};  // read or written
  uint8_t writes[3] = {0, 0, 0};  // written (a subset of fields)
  uint8_t ref[3] = {0, 0, 0};     // RefKind
  // Wait queues (by address): a step that queued itself on one depends on
  // a step that woke it; two sleepers commute (each adds itself to a list
  // woken whole), and so do two wakers (waking is idempotent).
  int nwaited = 0, nwoke = 0;
  const void* waited[2] = {nullptr, nullptr};
  const void* woke[2] = {nullptr, nullptr};
  bool many_queues = false;  // more than fit: depends on every sleeper/waker

  void Add(Class c, uint64_t identity, uint8_t f = kAllFields, uint8_t w = kAllFields,
           uint8_t r = kRefRead);
};

// The footprint of one executed step: the operation at its scheduling
// point (`op` is the string literal the kernel API passes to Kernel::Point)
// and what the executor saw it do (wait queues, a worker's exit, an effect
// beyond its operation's fields: StepInfo::wide, then it touches everything).
// `irq_starts_commute`: the scenario's interrupt handlers share nothing
// before their first point (the RAM disk: it copies the medium into the
// bio's own pages, and its fault plans decide each bio by its id alone);
// otherwise their first steps conflict with one another (a device's queue,
// timers and fault draws).
// `slab_reuses`: a freed object's memory may come back from a later kmalloc
// of its cache (a production kernel); a debug kernel's quarantine never
// gives it back during a run, so kmalloc and kfree then share nothing.
StepFootprint FootprintOf(const StepInfo& step, bool irq_starts_commute = false,
                          bool slab_reuses = true);
bool Conflict(const StepFootprint& a, const StepFootprint& b);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_EXHAUSTIVE_STRATEGY_POR_H_
