// SPDX-License-Identifier: GPL-2.0-only
// This file implements should_failslab and should_fail_alloc_page over
// should_fail_ex (lib/fault-inject.c of Linux 6.12) for the run's fault
// plan. What it keeps of the kernel's fault_attr: the task filter
// (fail_task: in_task() && current->make_it_fail), fail_nth before it (a
// task's nth point fails once, whatever the filter), and the probability;
// interval, times and space keep their defaults (1, -1, 0), and
// ignore-gfp-wait is off (lib's default is on: GFP_KERNEL would never fail).
#include "model/kernel/fault_inject.h"

#include <charconv>

#include "model/base/rng.h"
#include "model/kernel/kernel.h"

namespace squashlab {
namespace {

// should_fail_ex(attr, size, flags) for the current task.
bool ShouldFailEx(const char* what, size_t size) {
  Kernel* k = Kernel::CurrentOrNull();
  if (k == nullptr) return false;
  const FaultInjectConfig& c = k->config().fault_inject;
  Task* t = k->current_task();
  // in_task(): interrupt handlers never fail; and only the tasks a tester
  // marked (make-it-fail; fail-nth is written by the task itself, which is
  // one of them).
  if (t == nullptr || t->in_interrupt() || !t->spec.make_it_fail) return false;
  const uint64_t point = ++t->fault_points;
  bool fail = false;
  if (c.nth != 0 || c.nth_from_seed) {
    if (t->fail_nth < 0)
      t->fail_nth =
          c.nth != 0
              ? static_cast<int>(c.nth)
              : 1 + static_cast<int>(
                        Rng::Mix(Rng::Mix(k->config().seed, 0xfa11), t->id) %
                        kNthRange);
    // current->fail_nth counts down; the point that reaches 0 fails.
    if (t->fail_nth > 0) fail = --t->fail_nth == 0;
  } else if (c.probability != 0) {
    // get_random_u32_below(100) < probability, from the run's seed.
    const uint64_t r =
        Rng::Mix(Rng::Mix(Rng::Mix(k->config().seed, 0xfa11), t->id), point);
    fail = r % 100 < c.probability;
  }
  // fail_dump: the listing shows where the failure was forced.
  if (fail) k->Point(what, size);
  return fail;
}

}  // namespace

bool ParseAllocFaultPlan(const std::string& plan, FaultInjectConfig* out) {
  FaultInjectConfig c;
  if (plan == "failslab") {
    c.failslab = true;
    c.probability = 10;
  } else if (plan == "fail_page_alloc") {
    c.fail_page_alloc = true;
    c.probability = 10;
  } else if (plan == "fail-nth") {
    c.failslab = c.fail_page_alloc = true;
    c.nth_from_seed = true;
  } else if (plan.rfind("fail-nth=", 0) == 0) {
    const char* b = plan.data() + 9;
    const char* e = plan.data() + plan.size();
    unsigned n = 0;
    auto [end, ec] = std::from_chars(b, e, n);
    if (ec != std::errc() || end != e || b == e || n == 0 || n > 100000)
      return false;
    c.failslab = c.fail_page_alloc = true;
    c.nth = n;
  } else {
    return false;
  }
  *out = c;
  return true;
}

bool should_failslab(gfp_t, size_t size) {
  Kernel* k = Kernel::CurrentOrNull();
  if (k == nullptr || !k->config().fault_inject.failslab) return false;
  return ShouldFailEx("should_failslab", size);
}

bool should_fail_alloc_page(gfp_t, unsigned order) {
  Kernel* k = Kernel::CurrentOrNull();
  if (k == nullptr || !k->config().fault_inject.fail_page_alloc) return false;
  return ShouldFailEx("should_fail_alloc_page", size_t{1} << order);
}

}  // namespace squashlab
