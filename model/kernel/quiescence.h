// SPDX-License-Identifier: GPL-2.0-only
// This file implements the registry of quiescence checks: each kernel
// facility registers what it must find when every task has finished (no
// page left locked, no buffer_head or bio or work item or kmalloc object
// left behind), next to the code that owns those objects. The kernel runs
// them in their order (ties by name) and stops at the first fatal report.
#ifndef SQUASHLAB_MODEL_KERNEL_QUIESCENCE_H_
#define SQUASHLAB_MODEL_KERNEL_QUIESCENCE_H_

namespace squashlab {

class Kernel;

using QuiescenceCheck = void (*)(Kernel& k);

// Registers `check` at static-initialisation time:
//   const QuiescenceCheckRegistration kPages(10, "pages", CheckPages);
struct QuiescenceCheckRegistration {
  QuiescenceCheckRegistration(int order, const char* name,
                              QuiescenceCheck check);
};

void RunQuiescenceChecks(Kernel& k);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_KERNEL_QUIESCENCE_H_
