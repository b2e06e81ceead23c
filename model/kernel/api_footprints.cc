// SPDX-License-Identifier: GPL-2.0-only
// This file implements the footprints of the kernel API's scheduling points.
//
// Premise (the one CHESS makes for preempting only at synchronisation
// operations): a step's accesses to shared state are
// - the operation at its point, on the object the point names (pfn, block,
//   bio id, mutex id, page-cache index) or on a global resource (this
//   table);
// - what the executor sees the step do: queue itself on a wait queue, wake
//   one, create tasks or numbered objects, turn preemption off, end a
//   workqueue item (ExploreExecutor reports these in StepInfo);
// - plain accesses ordered by those operations (page data behind PG_locked
//   and SetPageUptodate, b_data behind unlock_buffer and wait_on_buffer,
//   fields behind a mutex, a work item's state behind queue_work).
// Code that races on plain memory between points (b_private in the 2013
// patch) is outside the premise: the reduction may skip some of its
// interleavings (the full search stays available: ExploreOptions::por,
// VerifyOptions::por). Operations this table does not know are dependent
// with everything.
#include "model/kernel/api_footprints.h"

#include <cstring>
#include <string_view>
#include <unordered_map>

namespace squashlab {
namespace {

namespace C = fp;
using fp::Class;

// Which classes an operation touches: the first by the point's argument
// (or 0 for a global class), with the fields it reads or writes (struct
// page and buffer_head), the second always global.
struct Entry {
  const char* op;
  Class by_arg;
  uint8_t reads;   // fields read only
  uint8_t writes;  // fields written (and maybe read)
  Class global;
  uint8_t ref = StepFootprint::kNoRef;  // what it does to the reference count
  bool global_read = false;             // it only reads the global class
  // An object of the step's CPU that it reads and writes (by CPU number).
  Class per_cpu = C::kNone;
};

constexpr uint8_t kLock = fp::kLockBit;
constexpr uint8_t kUptodate = fp::kUptodateBit;
constexpr uint8_t kError = fp::kErrorBit;
constexpr uint8_t kOther = fp::kOtherBits;
constexpr uint8_t kGet = StepFootprint::kRefGet;
constexpr uint8_t kPut = StepFootprint::kRefPut;
constexpr uint8_t kRead = StepFootprint::kRefRead;
constexpr uint8_t kNoRef = StepFootprint::kNoRef;
constexpr uint8_t kAll = StepFootprint::kAllFields;

// Every operation not listed touches everything (footprint `all`):
// wait_event/wake_up, flush_work, completions, atomics,
// READ_ONCE/WRITE_ONCE, delays, device threads.
//
// Fields: each operation names the bits of the flags word it tests or
// changes (atomic bit operations on different bits commute) and the
// reference count. What a field publishes is ordered by it: page data by
// PG_locked and PG_uptodate, b_data by BH_Lock and BH_Uptodate. A step that
// looks at more than its fields (a report prints the whole object; a page
// dropping its last reference is checked flag by flag and marked freed,
// which every later CheckPage reads) has a wide effect and touches
// everything (StepInfo::wide). A buffer_head is created by the __getblk of
// its block (b_count) before any other task can name it.
constexpr Entry kTable[] = {
    // Page flags, references and the lock. (Sleeping on and waking the
    // objects' wait queues is seen by the executor, per queue.)
    {"PageLocked", C::kPage, kLock, 0, C::kNone},
    {"trylock_page", C::kPage, 0, kLock, C::kNone},
    {"__set_page_locked", C::kPage, 0, kLock, C::kNone},
    {"__clear_page_locked", C::kPage, 0, kLock, C::kNone},
    {"lock_page", C::kPage, 0, kLock, C::kNone},
    {"unlock_page", C::kPage, 0, kLock, C::kNone},
    {"wait_on_page_locked", C::kPage, kLock, 0, C::kNone},
    {"PageUptodate", C::kPage, kUptodate, 0, C::kNone},
    {"SetPageUptodate", C::kPage, kLock, kUptodate,
     C::kNone},  // checks PG_locked
    {"ClearPageUptodate", C::kPage, 0, kUptodate, C::kNone},
    {"PageError", C::kPage, kError, 0, C::kNone},
    {"SetPageError", C::kPage, 0, kError, C::kNone},
    {"ClearPageError", C::kPage, 0, kError, C::kNone},
    {"PageReadahead", C::kPage, kOther, 0, C::kNone},
    {"SetPageReadahead", C::kPage, 0, kOther, C::kNone},
    {"ClearPageReadahead", C::kPage, 0, kOther, C::kNone},
    {"TestClearPageReadahead", C::kPage, 0, kOther, C::kNone},
    {"PageLRU", C::kPage, kOther, 0, C::kNone},
    {"PageDirty", C::kPage, kOther, 0, C::kNone},
    {"get_page", C::kPage, 0, 0, C::kNone, kGet},
    {"page_count", C::kPage, 0, 0, C::kNone, kRead},
    {"put_page", C::kPage, 0, 0, C::kNone,
     kPut},  // the last one is wide; pfns are never reused
    // A no-op on x86 (the model only checks the page, as every op does).
    {"flush_dcache_page", C::kNone, 0, 0, C::kNone},
    {"alloc_page", C::kNone, 0, 0, C::kPageAlloc},
    // The page cache, slot by slot (the argument is the index).
    {"find_get_page", C::kMapping, 0, kAll, C::kNone},
    {"add_to_page_cache_lru", C::kMapping, 0, kAll, C::kNone},
    // Buffer heads by block number.
    // __find_get_block looks the block up in this CPU's LRU (moving a hit
    // to the front) and bh_lru_install inserts it there; an eviction is
    // the __brelse point that follows, a step of its own.
    {"__getblk", C::kBuffer, 0, 0, C::kNone, kGet, false, C::kBhLru},
    {"get_bh", C::kBuffer, 0, 0, C::kNone, kGet},
    {"put_bh", C::kBuffer, 0, 0, C::kNone, kPut},
    {"__brelse", C::kBuffer, 0, 0, C::kNone, kPut},
    {"trylock_buffer", C::kBuffer, 0, kLock, C::kNone},
    {"lock_buffer", C::kBuffer, 0, kLock, C::kNone},
    {"unlock_buffer", C::kBuffer, 0, kLock, C::kNone},
    {"wait_on_buffer", C::kBuffer, kLock, 0, C::kNone},
    {"buffer_uptodate", C::kBuffer, kUptodate, 0, C::kNone},
    {"set_buffer_uptodate", C::kBuffer, 0, kUptodate, C::kNone},
    {"clear_buffer_uptodate", C::kBuffer, 0, kUptodate, C::kNone},
    {"buffer_req", C::kBuffer, kOther, 0, C::kNone},
    {"buffer_mapped", C::kBuffer, kOther, 0, C::kNone},
    {"submit_bh", C::kBuffer, 0, kAll,
     C::kSpawn},  // checks, sets BH_Req, sends a bio
    // Bios by id; submitting one makes the device spawn its completion.
    {"bio_add_page", C::kBio, 0, kAll, C::kNone},
    {"bio_endio", C::kBio, 0, kAll, C::kNone},
    {"bio_get", C::kBio, 0, kAll, C::kNone},
    {"bio_put", C::kBio, 0, kAll, C::kNone},
    {"submit_bio", C::kBio, 0, kAll, C::kSpawn},
    {"bio_alloc", C::kNone, 0, 0, C::kBioAlloc},
    {"mutex_lock", C::kMutex, 0, kAll, C::kNone},
    {"mutex_trylock", C::kMutex, 0, kAll, C::kNone},
    {"mutex_unlock", C::kMutex, 0, kAll, C::kNone},
    // kmalloc by the object's size: a cache's freelist (production slab)
    // or nothing shared (debug: never reused). kfree also looks for work
    // items inside the object (debugobjects): it reads every work item.
    {"kmalloc", C::kSlab, 0, kAll, C::kNone},
    {"kfree", C::kSlab, 0, kAll, C::kWork, kNoRef, /*global_read=*/true},
    // A work item by its id: its pending bit and its entry in the table;
    // queueing spawns the kworker (ids follow creation order). A kworker's
    // last step (it ends the item) touches the whole table (FootprintOf).
    {"queue_work", C::kWork, 0, kAll, C::kSpawn},
    {"process_one_work", C::kWork, 0, kAll, C::kNone},
    // The codec writing a page of output into pages the caller holds
    // locked (published by SetPageUptodate + unlock_page).
    {"inflate", C::kNone, 0, 0, C::kNone},
    // The task's own preemption count. What that does to the other tasks
    // of its CPU (gating) is seen by the executor after the step and
    // reported to OnStep (`gates_more`), so these touch no shared object.
    {"preempt_disable", C::kNone, 0, 0, C::kNone},
    {"preempt_enable", C::kNone, 0, 0, C::kNone},
    // A task's code before its first kernel-API call: what its creator
    // handed it (ordered by the spawn), and maybe state shared by every
    // interrupt handler's first step, such as a device's queue: those then
    // conflict with one another (FootprintOf's irq_starts_commute).
    {"start", C::kNone, 0, 0, C::kNone},
};

// Pages and buffer_heads have reference counts; identity 0 of a slab cache
// or a work item stands for all of them.
void Add(StepFootprint* f, Class c, uint64_t identity,
         uint8_t fields = StepFootprint::kAllFields,
         uint8_t w = StepFootprint::kAllFields,
         uint8_t r = StepFootprint::kRefRead) {
  f->Add(c, identity, fields, w, r, c == C::kPage || c == C::kBuffer,
         c == C::kSlab || c == C::kWork);
}

const Entry* Lookup(const char* op) {
  // Ops are string literals: cache by address, fall back to the text.
  thread_local std::unordered_map<const char*, const Entry*> cache;
  auto it = cache.find(op);
  if (it != cache.end()) return it->second;
  const Entry* found = nullptr;
  for (const Entry& e : kTable)
    if (std::strcmp(e.op, op) == 0) found = &e;
  cache.emplace(op, found);
  return found;
}

}  // namespace

StepFootprint FootprintOf(const StepInfo& step, bool irq_starts_commute,
                          bool slab_reuses) {
  StepFootprint f;
  const Entry* e = step.op ? Lookup(step.op) : nullptr;
  if (e == nullptr || step.wide) {
    f.all = true;
    return f;
  }
  if (e->by_arg != C::kSlab || slab_reuses)
    Add(&f, e->by_arg, step.arg, e->reads, e->writes, e->ref);
  if (e->global_read)
    Add(&f, e->global, 0, StepFootprint::kAllFields, 0);
  else
    Add(&f, e->global, 0);
  if (e->per_cpu != C::kNone)
    Add(&f, e->per_cpu, static_cast<uint64_t>(step.cpu < 0 ? 0 : step.cpu));
  if (!irq_starts_commute && e->op == std::string_view("start") &&
      step.context == TaskContext::kInterrupt)
    Add(&f, C::kStart, 0);
  if (step.finished && step.context == TaskContext::kWorkqueue)
    Add(&f, C::kWork, 0);
  f.AddWaits(step);
  return f;
}

}  // namespace squashlab
