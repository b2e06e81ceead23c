// This file implements KernelInternal: the kernel layer's own access to the
// executor of a run (preemption gating, cost charging, delays). Only files
// of model/kernel include it (tools/check_layers.py holds that); code above
// the layer schedules through the kernel API alone.
#ifndef SQUASHLAB_MODEL_KERNEL_KERNEL_INTERNAL_H_
#define SQUASHLAB_MODEL_KERNEL_KERNEL_INTERNAL_H_

#include <memory>
#include <vector>

#include "model/kernel/kernel.h"

namespace squashlab {

struct KernelInternal {
  static Executor& Exec(Kernel& k) { return k.exec(); }
  // The registries the facilities' quiescence checks walk.
  static const std::vector<std::unique_ptr<buffer_head>>& BufferHeads(const Kernel& k) {
    return k.bhs_;
  }
  static const std::vector<std::unique_ptr<bio>>& Bios(const Kernel& k) { return k.bios_; }
};

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_KERNEL_KERNEL_INTERNAL_H_
