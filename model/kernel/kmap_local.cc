// SPDX-License-Identifier: GPL-2.0-only
// This file implements the local mappings' stack of each task and its
// LIFO check (mm/highmem.c, kunmap_local_indexed).
#include "model/kernel/kmap_local.h"

#include <cstdint>
#include <string>

#include "model/kernel/kernel.h"
#include "model/kernel/kernel_internal.h"
#include "model/kernel/page.h"

namespace squashlab {
namespace {

constexpr uintptr_t kPageMask = ~uintptr_t{4095};

void KmapWarn(Kernel& k, Task* t, int line, uintptr_t addr,
              const std::string& what) {
  k.Warn(Check::kKunmapLocalOrder, "WARNING in kunmap_local_indexed",
         "WARNING: CPU: " + std::to_string(t->cpu) +
             " PID: " + std::to_string(t->id) + " at mm/highmem.c:" +
             std::to_string(line) + " kunmap_local_indexed\nkunmap_local(" +
             Hex16(addr) + "): " + what);
}

}  // namespace

void* kmap_local_page(page* p) {
  void* addr = page_address(p);
  Kernel* k = Kernel::CurrentOrNull();
  Task* t = k != nullptr ? k->current_task() : nullptr;
  if (t != nullptr)
    t->kmap_local.push_back(reinterpret_cast<uintptr_t>(addr) & kPageMask);
  return addr;
}

void kunmap_local(const void* vaddr) {
  Kernel* k = Kernel::CurrentOrNull();
  Task* t = k != nullptr ? k->current_task() : nullptr;
  if (t == nullptr) return;
  const uintptr_t addr = reinterpret_cast<uintptr_t>(vaddr) & kPageMask;
  if (t->kmap_local.empty()) {
    // Not a local mapping of this task: FORCE_MAP's "should never happen".
    KmapWarn(*k, t, 607, addr, "no local mapping of the task is live");
    return;
  }
  const uintptr_t innermost = t->kmap_local.back();
  t->kmap_local.pop_back();  // kmap_local_idx_pop(), whatever addr was
  if (addr != innermost) {
    std::string live;
    for (uintptr_t m : t->kmap_local) live += " " + Hex16(m);
    KmapWarn(*k, t, 623, addr,
             "not the innermost local mapping (" + Hex16(innermost) +
                 "; the task's others:" + (live.empty() ? " none" : live) +
                 "): local mappings are unmapped in the reverse order of "
                 "mapping");
  }
}

}  // namespace squashlab
