// SPDX-License-Identifier: GPL-2.0-only
// This file declares a decompressor strategy that misuses the per-CPU one
// on purpose, for tests of the checkers: it takes a sleeping lock (a mutex)
// inside its per-CPU section (get_cpu_ptr .. put_cpu_ptr), what a careless
// port of decompressor_multi_percpu.c would do. A debug kernel's
// might_sleep reports it as "BUG: sleeping function called from invalid
// context" (kernel/sched/core.c, __might_resched).
#ifndef SQUASHLAB_HARNESS_SLEEPY_DECOMPRESSOR_H_
#define SQUASHLAB_HARNESS_SLEEPY_DECOMPRESSOR_H_

namespace squashlab {

struct SquashfsDecompressorOps;

// "percpu-sleepy"; for ScenarioBuilder::Decompressor.
const SquashfsDecompressorOps* SleepyPercpuDecompressor();

}  // namespace squashlab

#endif  // SQUASHLAB_HARNESS_SLEEPY_DECOMPRESSOR_H_
