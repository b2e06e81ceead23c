// SPDX-License-Identifier: GPL-2.0-only
// This file implements on-stack plugging. The current plug lives in the
// task, as the kernel's current->plug does; one lock guards the plugged
// lists, which another task may flush (a device's unplug timer) while the
// threads executor runs tasks truly concurrently.
#include "model/kernel/blk_plug.h"

#include <exception>
#include <mutex>

#include "model/kernel/bio.h"
#include "model/kernel/kernel.h"

namespace squashlab {
namespace {

std::mutex& PlugMu() {
  static std::mutex mu;
  return mu;
}

Task* CurrentTask() {
  Kernel* k = Kernel::CurrentOrNull();
  return k ? k->current_task() : nullptr;
}

// Hands `bios` to their drivers: each run of bios for one driver as a batch.
void SubmitPlugged(std::vector<bio*> bios) {
  size_t i = 0;
  while (i < bios.size()) {
    BlockDriver* driver = bios[i]->bi_bdev->driver;
    std::vector<bio*> batch;
    while (i < bios.size() && bios[i]->bi_bdev->driver == driver)
      batch.push_back(bios[i++]);
    driver->submit_batch(batch);
  }
}

// Forgets `plug` as its owner's current plug. REQUIRES: PlugMu() held.
void UnregisterLocked(blk_plug* plug) {
  if (plug->owner != nullptr && plug->owner->plug == plug)
    plug->owner->plug = nullptr;
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
  std::lock_guard<std::mutex> l(PlugMu());
  UnregisterLocked(this);
}

void blk_start_plug(blk_plug* plug) {
  Task* t = CurrentTask();
  BUG_ON(t == nullptr);
  std::lock_guard<std::mutex> l(PlugMu());
  if (t->plug != nullptr) return;  // nested plug: the outer one stays current
  t->plug = plug;
  plug->list.clear();
  plug->owner = t;
  plug->active = true;
}

void blk_finish_plug(blk_plug* plug) {
  std::vector<bio*> bios;
  {
    std::lock_guard<std::mutex> l(PlugMu());
    if (!plug->active) return;
    UnregisterLocked(plug);
    plug->active = false;
    bios.swap(plug->list);
  }
  SubmitPlugged(std::move(bios));
}

size_t blk_flush_plug_of(Task* t) {
  std::vector<bio*> bios;
  {
    std::lock_guard<std::mutex> l(PlugMu());
    if (t == nullptr || t->plug == nullptr) return 0;
    bios.swap(t->plug->list);
  }
  size_t n = bios.size();
  SubmitPlugged(std::move(bios));
  return n;
}

void blk_flush_plug_current() {
  Task* t = CurrentTask();
  if (t == nullptr || t->plug == nullptr) return;  // only the task sets its own
  blk_flush_plug_of(t);
}

blk_plug* current_plug() {
  Task* t = CurrentTask();
  if (t == nullptr) return nullptr;
  std::lock_guard<std::mutex> l(PlugMu());
  return t->plug;
}

bool blk_plug_add_current(bio* b) {
  Task* t = CurrentTask();
  if (t == nullptr) return false;
  std::lock_guard<std::mutex> l(PlugMu());
  if (t->plug == nullptr) return false;
  t->plug->list.push_back(b);
  return true;
}

}  // namespace squashlab
