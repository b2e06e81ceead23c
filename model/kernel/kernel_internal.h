// SPDX-License-Identifier: GPL-2.0-only
// This file implements KernelInternal: the kernel layer's own access to the
// executor of a run (preemption gating, cost charging, delays) and to its
// registries (pages, buffer heads, bios, work items, the heap). Only files
// of model/kernel include it (tools/check_layers.py holds that); code above
// the layer schedules through the kernel API alone.
#ifndef SQUASHLAB_MODEL_KERNEL_KERNEL_INTERNAL_H_
#define SQUASHLAB_MODEL_KERNEL_KERNEL_INTERNAL_H_

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "model/kernel/kernel.h"

namespace squashlab {

// An address as the kernel's reports print it: 16 hex digits, no prefix.
std::string Hex16(uint64_t v);

struct KernelInternal {
  static Executor& Exec(Kernel& k) { return k.exec(); }
  // The registries (pages, mappings, buffer cache, bios, work items, the
  // kmalloc heap), their lock, id counters and per-object wait queues.
  static RunMutex& TreeLock(Kernel& k) { return k.tree_lock(); }
  static Heap& Heap_(Kernel& k) { return k.heap(); }
  static const std::vector<std::unique_ptr<page>>& Pages(const Kernel& k) {
    return k.pages();
  }
  static std::vector<address_space*>& Mappings(Kernel& k) {
    return k.mappings();
  }
  static std::map<std::pair<const block_device*, uint64_t>, buffer_head*>&
  BufferCache(Kernel& k) {
    return k.buffer_cache();
  }
  // Per CPU, most recent first (bh_lru.cc). REQUIRES: tree_lock held.
  static std::vector<std::vector<buffer_head*>>& BhLrus(Kernel& k) {
    if (k.bh_lrus_.empty()) k.bh_lrus_.resize(k.config().ncpus);
    return k.bh_lrus_;
  }
  // The lock validator: the campaign's graph (the held locks are each
  // task's, Task::held_locks), and whether it has reported yet.
  static LockdepGraph& Lockdep(Kernel& k) { return *k.config_.lockdep; }
  static bool LockdepOn(Kernel& k) { return k.lockdep_on_; }
  static void LockdepOff(Kernel& k) { k.lockdep_on_ = false; }
  static std::map<const work_struct*, WorkState>& Works(Kernel& k) {
    return k.works();
  }
  static page* AllocPage(Kernel& k) { return k.AllocPage(); }
  static buffer_head* AllocBufferHead(Kernel& k, size_t size) {
    return k.AllocBufferHead(size);
  }
  static bio* AllocBio(Kernel& k) { return k.AllocBio(); }
  static void FreeBio(Kernel& k, bio* b) { k.FreeBio(b); }
  static int NextWorkerId(Kernel& k) { return k.NextWorkerId(); }
  static uint64_t NextObjectId(Kernel& k) { return k.NextObjectId(); }
  static wait_queue_head_t& Waitqueue(Kernel& k, Kernel::WaitOn kind,
                                      uint64_t id) {
    return k.Waitqueue(kind, id);
  }
  static void NoteWideEffect(Kernel& k) { k.NoteWideEffect(); }
  // What the facilities' quiescence checks walk.
  static const std::vector<std::unique_ptr<buffer_head>>& BufferHeads(
      const Kernel& k) {
    return k.bhs_;
  }
  static const std::vector<std::unique_ptr<bio>>& Bios(const Kernel& k) {
    return k.bios_;
  }
};

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_KERNEL_KERNEL_INTERNAL_H_
