// SPDX-License-Identifier: GPL-2.0-only
// This file implements vmalloc, vfree and kvfree as an allocator of their
// own (mm/vmalloc.c, mm/util.c of Linux 6.12): vmalloc's objects come from
// the heap's "vmalloc" region, vfree frees only those (anything else is
// "Trying to vfree() nonexistent vm area", a WARN, and nothing is freed),
// kfree refuses them (slab.cc: virt_to_folio of a vmalloc address, a BUG
// under CONFIG_DEBUG_VIRTUAL, a page fault without it), and kvfree picks
// the right one by the address's region (is_vmalloc_addr).
#ifndef SQUASHLAB_MODEL_KERNEL_VMALLOC_H_
#define SQUASHLAB_MODEL_KERNEL_VMALLOC_H_

#include <cstddef>
#include <cstdint>
#include <string>

namespace squashlab {

class Kernel;

// __vmalloc_node_range: might sleep; fails (nullptr) when the fault plan
// fails its pages (fail_page_alloc) or its vm_struct (failslab).
void* vmalloc(size_t size, const char* caller = __builtin_FUNCTION());
void vfree(const void* p, const char* caller = __builtin_FUNCTION());
void kvfree(const void* p, const char* caller = __builtin_FUNCTION());
// is_vmalloc_addr: p lies in an object vmalloc made (live or freed).
bool is_vmalloc_addr(const void* p);

// kfree of the vmalloc'd object at p by `caller` (slab.cc calls it), made
// by `alloc_site`: the oops of kfree's virt_to_folio on a vmalloc address. In a
// task it ends the run; outside any (an unmount at quiescence) it is recorded
// and returns, the object left allocated.
void KfreeOfVmalloc(Kernel& k, uintptr_t p, const std::string& caller,
                    const std::string& alloc_site);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_KERNEL_VMALLOC_H_
