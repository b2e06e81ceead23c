// SPDX-License-Identifier: GPL-2.0-only
// This file implements the footprints of the kernel API's scheduling
// points for the partial-order reduction (sched/step_footprint.h): what
// shared state a step may touch, derived from the operation at its point.
// Operations the table does not know touch everything.
#ifndef SQUASHLAB_MODEL_KERNEL_API_FOOTPRINTS_H_
#define SQUASHLAB_MODEL_KERNEL_API_FOOTPRINTS_H_

#include <cstdint>

#include "model/sched/step_footprint.h"

namespace squashlab {

// The kernel's classes of object.
namespace fp {
enum Class : StepFootprint::Class {
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
  kBhLru,      // a CPU's buffer_head LRU (fs/buffer.c's bh_lrus), by CPU
};
// Fields of a struct page or buffer_head (other classes: kAllFields).
enum Field : uint8_t {
  kLockBit = 1,      // PG_locked / BH_Lock (and what they publish)
  kUptodateBit = 2,  // PG_uptodate / BH_Uptodate
  kErrorBit = 4,     // PG_error
  kOtherBits = 8,    // PG_readahead, PG_lru, PG_dirty / BH_Req, BH_Mapped
};
}  // namespace fp

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

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_KERNEL_API_FOOTPRINTS_H_
