// This file implements KernelInternal: the kernel layer's own access to the
// executor of a run (preemption gating, cost charging, delays). Only files
// of model/kernel include it (tools/check_layers.py holds that); code above
// the layer schedules through the kernel API alone.
#ifndef SQUASHLAB_MODEL_KERNEL_KERNEL_INTERNAL_H_
#define SQUASHLAB_MODEL_KERNEL_KERNEL_INTERNAL_H_

#include "model/kernel/kernel.h"

namespace squashlab {

struct KernelInternal {
  static Executor& Exec(Kernel& k) { return k.exec(); }
};

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_KERNEL_KERNEL_INTERNAL_H_
