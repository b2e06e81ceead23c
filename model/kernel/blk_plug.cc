// This file implements the per-task plug registry. Tasks of the explore and
// simulate executors share one OS thread, so the registry is keyed by Task,
// not thread-local; a mutex makes it safe under the threads executor.
#include "model/kernel/blk_plug.h"

#include <atomic>
#include <exception>
#include <mutex>
#include <unordered_map>

#include "model/kernel/bio.h"
#include "model/kernel/kernel.h"

namespace squashlab {
namespace {

std::mutex& RegistryMu() {
  static std::mutex mu;
  return mu;
}

std::unordered_map<const Task*, blk_plug*>& Registry() {
  static auto* plugs = new std::unordered_map<const Task*, blk_plug*>();
  return *plugs;
}

const Task* CurrentTask() {
  Kernel* k = Kernel::CurrentOrNull();
  return k ? k->current_task() : nullptr;
}

// Hands `bios` to their drivers: each run of bios for one driver as a batch.
void SubmitPlugged(std::vector<bio*> bios) {
  size_t i = 0;
  while (i < bios.size()) {
    BlockDriver* driver = bios[i]->bi_bdev->driver;
    std::vector<bio*> batch;
    while (i < bios.size() && bios[i]->bi_bdev->driver == driver) batch.push_back(bios[i++]);
    driver->submit_batch(batch);
  }
}

// Registered plugs: lets a sleep skip the registry when none exists.
std::atomic<int>& ActivePlugs() {
  static std::atomic<int> n{0};
  return n;
}

// Forgets `plug` as its owner's current plug. REQUIRES: RegistryMu() held.
void UnregisterLocked(const blk_plug* plug) {
  auto it = Registry().find(plug->owner);
  if (it == Registry().end() || it->second != plug) return;
  Registry().erase(it);
  ActivePlugs().fetch_sub(1);
}

}  // namespace

blk_plug::~blk_plug() {
  if (!active) return;
  // Unwinding (an oops ended the run): just forget the plug. Otherwise the
  // caller forgot blk_finish_plug: submit the bios, as the kernel does when
  // the task sleeps or exits.
  if (std::uncaught_exceptions() == 0) {
    blk_finish_plug(this);
    return;
  }
  std::lock_guard<std::mutex> l(RegistryMu());
  UnregisterLocked(this);
}

void blk_start_plug(blk_plug* plug) {
  const Task* t = CurrentTask();
  BUG_ON(t == nullptr);
  std::lock_guard<std::mutex> l(RegistryMu());
  auto [it, inserted] = Registry().emplace(t, plug);
  if (!inserted) return;  // nested plug: the outer one stays current
  ActivePlugs().fetch_add(1);
  plug->list.clear();
  plug->owner = t;
  plug->active = true;
}

void blk_finish_plug(blk_plug* plug) {
  std::vector<bio*> bios;
  {
    std::lock_guard<std::mutex> l(RegistryMu());
    if (!plug->active) return;
    UnregisterLocked(plug);
    plug->active = false;
    bios.swap(plug->list);
  }
  SubmitPlugged(std::move(bios));
}

size_t blk_flush_plug_of(const Task* t) {
  std::vector<bio*> bios;
  {
    std::lock_guard<std::mutex> l(RegistryMu());
    auto it = Registry().find(t);
    if (it == Registry().end()) return 0;
    bios.swap(it->second->list);
  }
  size_t n = bios.size();
  SubmitPlugged(std::move(bios));
  return n;
}

void blk_flush_plug_current() {
  if (ActivePlugs().load(std::memory_order_relaxed) == 0) return;
  blk_flush_plug_of(CurrentTask());
}

blk_plug* current_plug() {
  const Task* t = CurrentTask();
  if (t == nullptr) return nullptr;
  std::lock_guard<std::mutex> l(RegistryMu());
  auto it = Registry().find(t);
  return it == Registry().end() ? nullptr : it->second;
}

bool blk_plug_add_current(bio* b) {
  const Task* t = CurrentTask();
  if (t == nullptr) return false;
  std::lock_guard<std::mutex> l(RegistryMu());
  auto it = Registry().find(t);
  if (it == Registry().end()) return false;
  it->second->list.push_back(b);
  return true;
}

}  // namespace squashlab
