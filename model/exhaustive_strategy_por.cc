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
#include "model/exhaustive_strategy_por.h"

#include <cstring>
#include <string_view>
#include <unordered_map>

namespace squashlab {
namespace {

using C = StepFootprint::Class;

// Which classes an operation touches: the first by the point's argument
// (or 0 for a global class), the second always global.
struct Entry {
  const char* op;
  C by_arg;
  C global;
};

// Every operation not listed touches everything (footprint `all`):
// wait_event/wake_up, work items, completions, atomics,
// READ_ONCE/WRITE_ONCE, preempt_disable/enable, delays, device threads.
constexpr Entry kTable[] = {
    // Page flags, references and the lock: the page. (Sleeping on and
    // waking the hashed wait queues is seen by the executor, per queue.)
    {"PageLocked", C::kPage, C::kNone},
    {"PageUptodate", C::kPage, C::kNone},
    {"SetPageUptodate", C::kPage, C::kNone},
    {"ClearPageUptodate", C::kPage, C::kNone},
    {"PageError", C::kPage, C::kNone},
    {"SetPageError", C::kPage, C::kNone},
    {"ClearPageError", C::kPage, C::kNone},
    {"PageReadahead", C::kPage, C::kNone},
    {"SetPageReadahead", C::kPage, C::kNone},
    {"ClearPageReadahead", C::kPage, C::kNone},
    {"TestClearPageReadahead", C::kPage, C::kNone},
    {"PageLRU", C::kPage, C::kNone},
    {"PageDirty", C::kPage, C::kNone},
    {"flush_dcache_page", C::kPage, C::kNone},
    {"get_page", C::kPage, C::kNone},
    {"page_count", C::kPage, C::kNone},
    {"put_page", C::kPage, C::kNone},  // pfns are never reused
    {"trylock_page", C::kPage, C::kNone},
    {"__set_page_locked", C::kPage, C::kNone},
    {"__clear_page_locked", C::kPage, C::kNone},
    {"lock_page", C::kPage, C::kNone},
    {"unlock_page", C::kPage, C::kNone},
    {"wait_on_page_locked", C::kPage, C::kNone},
    {"alloc_page", C::kNone, C::kPageAlloc},
    // The page cache, slot by slot (the argument is the index).
    {"find_get_page", C::kMapping, C::kNone},
    {"add_to_page_cache_lru", C::kMapping, C::kNone},
    // Buffer heads by block number.
    {"__getblk", C::kBuffer, C::kNone},
    {"trylock_buffer", C::kBuffer, C::kNone},
    {"buffer_uptodate", C::kBuffer, C::kNone},
    {"set_buffer_uptodate", C::kBuffer, C::kNone},
    {"clear_buffer_uptodate", C::kBuffer, C::kNone},
    {"buffer_req", C::kBuffer, C::kNone},
    {"buffer_mapped", C::kBuffer, C::kNone},
    {"get_bh", C::kBuffer, C::kNone},
    {"put_bh", C::kBuffer, C::kNone},
    {"__brelse", C::kBuffer, C::kNone},
    {"submit_bh", C::kBuffer, C::kNone},
    {"lock_buffer", C::kBuffer, C::kNone},
    {"unlock_buffer", C::kBuffer, C::kNone},
    {"wait_on_buffer", C::kBuffer, C::kNone},
    // Bios by id; submitting one makes the device spawn its completion.
    {"bio_add_page", C::kBio, C::kNone},
    {"bio_endio", C::kBio, C::kNone},
    {"bio_get", C::kBio, C::kNone},
    {"bio_put", C::kBio, C::kNone},
    {"submit_bio", C::kBio, C::kSpawn},
    {"bio_alloc", C::kNone, C::kBioAlloc},
    {"mutex_lock", C::kMutex, C::kNone},
    {"mutex_trylock", C::kMutex, C::kNone},
    {"mutex_unlock", C::kMutex, C::kNone},
    {"kmalloc", C::kNone, C::kSlab},
    {"kfree", C::kNone, C::kSlab},
    // The codec writing a page of output into pages the caller holds
    // locked (published by SetPageUptodate + unlock_page).
    {"inflate", C::kNone, C::kNone},
    // The task's own preemption count. What that does to the other tasks
    // of its CPU (gating) is seen by the executor after the step and
    // reported to OnStep (`gates_more`), so these touch no shared object.
    {"preempt_disable", C::kNone, C::kNone},
    {"preempt_enable", C::kNone, C::kNone},
    // A task's code before its first kernel-API call: what its creator
    // handed it (ordered by the spawn), and state shared by every task's
    // first step, such as the RAM disk's fault-plan draws in the
    // completion interrupt: all first steps conflict with one another.
    {"start", C::kNone, C::kNone},
};

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

void StepFootprint::Add(Class c, uint64_t identity) {
  if (c == kNone) return;
  if (n == 3) {
    all = true;
    return;
  }
  cls[n] = c;
  id[n++] = identity;
}

StepFootprint FootprintOf(const StepInfo& step, bool irq_starts_commute) {
  StepFootprint f;
  const Entry* e = step.op ? Lookup(step.op) : nullptr;
  if (e == nullptr) {
    f.all = true;
    return f;
  }
  f.Add(e->by_arg, step.arg);
  f.Add(e->global, 0);
  if (!irq_starts_commute && e->op == std::string_view("start") &&
      step.context == TaskContext::kInterrupt)
    f.Add(C::kStart, 0);
  if (step.finished && step.context == TaskContext::kWorkqueue) f.Add(C::kWork, 0);
  for (const void* q : step.waited) {
    if (f.nwaited == 2) f.many_queues = true;
    else f.waited[f.nwaited++] = q;
  }
  for (const void* q : step.woke) {
    if (f.nwoke == 2) f.many_queues = true;
    else f.woke[f.nwoke++] = q;
  }
  return f;
}

namespace {

// Whether a step that slept on `waited` and one that woke `woke` meet.
bool Meet(const StepFootprint& sleeper, const StepFootprint& waker) {
  if (sleeper.nwaited == 0 || waker.nwoke == 0) return false;
  if (sleeper.many_queues || waker.many_queues) return true;
  for (int i = 0; i < sleeper.nwaited; i++)
    for (int j = 0; j < waker.nwoke; j++)
      if (sleeper.waited[i] == waker.woke[j]) return true;
  return false;
}

}  // namespace

bool Conflict(const StepFootprint& a, const StepFootprint& b) {
  if (a.all || b.all) return true;
  for (int i = 0; i < a.n; i++)
    for (int j = 0; j < b.n; j++)
      if (a.cls[i] == b.cls[j] && a.id[i] == b.id[j]) return true;
  return Meet(a, b) || Meet(b, a);
}

}  // namespace squashlab
