// SPDX-License-Identifier: GPL-2.0-only
// This file implements the kernel's allocation fault injection for the code
// under test: failslab (mm/failslab.c, should_failslab) and fail_page_alloc
// (mm/fail_page_alloc.c, should_fail_alloc_page), both deciding through
// lib/fault-inject.c's should_fail_ex. A plan is what a tester writes to
// debugfs and /proc before a run: task-filter=Y with make-it-fail set on the
// tasks of the workload, ignore-gfp-wait=N (GFP_KERNEL and GFP_NOIO may
// fail: the settings syzkaller uses), and either a probability or a
// /proc/thread-self/fail-nth per task.
#ifndef SQUASHLAB_MODEL_KERNEL_FAULT_INJECT_H_
#define SQUASHLAB_MODEL_KERNEL_FAULT_INJECT_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "model/kernel/slab.h"

namespace squashlab {

class Kernel;
struct Task;

struct FaultInjectConfig {
  bool failslab = false;         // kmalloc & co, kmem_cache_alloc, vmalloc
  bool fail_page_alloc = false;  // alloc_page, vmalloc's pages
  // should_fail_ex's `probability` (percent) of each point of a
  // make-it-fail task; the draw is the run's seed mixed with the task and
  // its point count, so a token replays it.
  unsigned probability = 0;
  // fail-nth: each make-it-fail task's nth point fails, once (current->
  // fail_nth). 0 with nth_from_seed: each task's n drawn from the run's
  // seed in [1, kNthRange] — a dimension the explorer searches by seed.
  unsigned nth = 0;
  bool nth_from_seed = false;
  bool on() const { return failslab || fail_page_alloc; }
};

inline constexpr unsigned kNthRange = 24;

// The fault plans a scenario can name: "failslab", "fail_page_alloc" (10%
// of each kind's points), "fail-nth" (n from the seed) and "fail-nth=N"
// (both kinds). False when `plan` is none of them.
bool ParseAllocFaultPlan(const std::string& plan, FaultInjectConfig* out);

// should_failslab(s, gfp): whether the current task's slab allocation of
// `size` bytes fails. Only process-context tasks with make_it_fail
// (task-filter, fail_task) or a pending fail_nth fail; the header layer has
// no __GFP_NOFAIL, which the kernel never fails.
bool should_failslab(gfp_t gfp, size_t size);
// should_fail_alloc_page(gfp, order): the same for the page allocator.
bool should_fail_alloc_page(gfp_t gfp, unsigned order);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_KERNEL_FAULT_INJECT_H_
