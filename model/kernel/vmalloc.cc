// SPDX-License-Identifier: GPL-2.0-only
// This file implements vmalloc's region of the heap and its frees, as
// mm/vmalloc.c (vfree, remove_vm_area), mm/util.c (kvfree) and mm/slub.c
// (kfree -> virt_to_folio) of Linux 6.12 treat a pointer of the wrong
// allocator.
#include "model/kernel/vmalloc.h"

#include <mutex>
#include <string>

#include "model/kernel/fault_inject.h"
#include "model/kernel/kernel.h"
#include "model/kernel/kernel_internal.h"
#include "model/kernel/slab.h"

namespace squashlab {
namespace {

std::string Where(Kernel& k) {
  Task* t = k.current_task();
  return "CPU: " + std::to_string(t ? t->cpu : 0) +
         " PID: " + std::to_string(t ? t->id : 0) +
         " Comm: " + (t ? t->Comm() : std::string("setup"));
}

}  // namespace

void* vmalloc(size_t size, const char* caller) {
  // __vmalloc_area_node allocates its pages (fail_page_alloc) and
  // __get_vm_area_node its vm_struct with kzalloc_node (failslab).
  if (should_fail_alloc_page(GFP_KERNEL, 0) ||
      should_failslab(GFP_KERNEL, size))
    return nullptr;
  return kmem_cache_alloc_named(kVmallocCache, size, GFP_KERNEL, caller);
}

bool is_vmalloc_addr(const void* p) {
  Kernel* k = Kernel::CurrentOrNull();
  if (k == nullptr || p == nullptr) return false;
  std::lock_guard<RunMutex> l(KernelInternal::TreeLock(*k));
  uintptr_t base = 0;
  const HeapObject* obj = KernelInternal::Heap_(*k).Find(p, &base);
  return obj != nullptr && obj->cache == kVmallocCache;
}

void vfree(const void* p, const char* caller) {
  Kernel& k = Kernel::Current();
  k.MightSleep("vfree");
  if (p == nullptr) return;
  bool found = false;
  {
    std::lock_guard<RunMutex> l(KernelInternal::TreeLock(k));
    uintptr_t base = 0;
    const HeapObject* obj = KernelInternal::Heap_(k).Find(p, &base);
    // remove_vm_area finds the live area that starts at p, or none.
    found = obj != nullptr && !obj->freed && obj->cache == kVmallocCache &&
            base == reinterpret_cast<uintptr_t>(p);
  }
  if (!found) {
    // vfree: WARN(1, "Trying to vfree() nonexistent vm area (%p)") and
    // return; whatever p was stays allocated.
    k.Warn(Check::kVfreeNonexistent,
           "WARNING in vfree: Trying to vfree() nonexistent vm area",
           "Trying to vfree() nonexistent vm area (" +
               Hex16(reinterpret_cast<uintptr_t>(p)) +
               ")\nWARNING: " + Where(k) + " at mm/vmalloc.c:3426 vfree");
    return;
  }
  FreeObject(p, caller, true);
}

void kvfree(const void* p, const char* caller) {
  if (is_vmalloc_addr(p))
    vfree(p, caller);
  else
    kfree(p, caller);
}

void KfreeOfVmalloc(Kernel& k, uintptr_t p, const std::string& caller,
                    const std::string& alloc_site) {
  // kfree -> virt_to_folio -> __pa: a vmalloc address is no direct-map
  // address. CONFIG_DEBUG_VIRTUAL's __phys_addr catches it
  // (VIRTUAL_BUG_ON((x > y) || !phys_addr_valid(x))); without it the
  // struct page computed for it is past the vmemmap, and reading its flags
  // faults.
  const std::string what = "kfree(" + Hex16(p) + ") in " + caller +
                           ": the object was allocated by vmalloc in " +
                           alloc_site;
  std::string title, body;
  if (k.config().debug) {
    title = "kernel BUG at arch/x86/mm/physaddr.c:28!";
    body =
        "kernel BUG at arch/x86/mm/physaddr.c:28!\ninvalid opcode: 0000 "
        "[#1] SMP KASAN\n" +
        Where(k) + "\nRIP: 0010:__phys_addr\n" + what;
  } else {
    title = "BUG: unable to handle page fault for address in kfree";
    body = "BUG: unable to handle page fault for address: ffffea" +
           Hex16(p).substr(6) +
           "\n#PF: supervisor read access in kernel mode\n" + Where(k) +
           "\nRIP: 0010:kfree\n" + what +
           " (virt_to_folio of a vmalloc address)";
  }
  if (k.current_task() != nullptr)
    k.Bug(Check::kKfreeVmalloc, std::move(title), std::move(body));
  k.Record(Check::kKfreeVmalloc, std::move(title), std::move(body));
}

}  // namespace squashlab
