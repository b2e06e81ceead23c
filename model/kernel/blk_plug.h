// SPDX-License-Identifier: GPL-2.0-only
// This file implements on-stack plugging in the kernel's names:
// blk_start_plug / blk_finish_plug hold a task's bios back so that the
// device queue receives them together and can merge them, and a task that
// sleeps submits its plugged bios first (Kernel::Sleep calls
// blk_flush_plug_current, as schedule() calls blk_schedule_flush_plug).
// The current plug is the task's (Task::plug, the kernel's current->plug).
// Drivers without a queue (the RAM disk) take a flushed plug bio by bio.
#ifndef SQUASHLAB_MODEL_KERNEL_BLK_PLUG_H_
#define SQUASHLAB_MODEL_KERNEL_BLK_PLUG_H_

#include <cstddef>
#include <vector>

namespace squashlab {

struct bio;
struct Task;

struct blk_plug {
  blk_plug() = default;
  // A task unwound by an oops leaves its plug registered: forget it here.
  ~blk_plug();
  blk_plug(const blk_plug&) = delete;
  blk_plug& operator=(const blk_plug&) = delete;

  std::vector<bio*> list;  // plugged bios, in submission order
  Task* owner = nullptr;
  bool active = false;  // registered as its owner's plug
};

// Makes `plug` the current task's plug. A nested call (the task already has
// one) does nothing, as in the kernel. REQUIRES: inside a task.
void blk_start_plug(blk_plug* plug);
// Submits the plugged bios to their devices (each BlockDevice receives its
// bios as one batch) and clears the plug. A no-op for an inactive plug.
void blk_finish_plug(blk_plug* plug);
// What the kernel's schedule() does before a task sleeps: submit the plugged
// bios and keep the plug. A no-op without a current plug; cheap when no
// task has one.
void blk_flush_plug_current();
// The current task's plug, or nullptr.
blk_plug* current_plug();
// For drivers: appends `b` to the current task's plug; false without one.
bool blk_plug_add_current(bio* b);
// Flushes task `t`'s plug from another task (the unplug timer); returns how
// many bios it submitted.
size_t blk_flush_plug_of(Task* t);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_KERNEL_BLK_PLUG_H_
