// SPDX-License-Identifier: GPL-2.0-only
// This file implements kmap_local_page and kunmap_local as a 64-bit debug
// kernel with CONFIG_DEBUG_KMAP_LOCAL_FORCE_MAP runs them (lib/Kconfig.debug
// DEBUG_KMAP_LOCAL_FORCE_MAP: "enforces temporary mappings through the
// kmap_local mechanism for non-highmem pages"; mm/highmem.c of Linux 6.12,
// __kmap_local_page_prot, __kmap_local_pfn_prot, kunmap_local_indexed).
//
// Every mapping is pushed on the task's stack of local mappings and gets a
// temporary address of its own: a slot of the task's fixmap window. With
// CONFIG_DEBUG_KMAP_LOCAL (which FORCE_MAP selects) the stack advances two
// slots a mapping (KM_INCR), so the odd slots hold mappings and the even
// ones stay unmapped as guards (KM_MAX_IDX 33, include/asm-generic/
// kmap_size.h). kunmap_local clears the innermost slot's PTE: an access
// through that address afterwards is a page fault, "BUG: unable to handle
// page fault for address" (arch/x86/mm/fault.c, show_fault_oops), and so
// is an access past a mapped page into a guard slot. An unmap must name
// the innermost mapping (LIFO): another is WARN_ON_ONCE(addr !=
// __fix_to_virt(FIX_KMAP_BEGIN + idx)), after which the innermost slot is
// cleared and popped all the same; an address outside the slots is
// FORCE_MAP's "should never happen" WARN_ON_ONCE, and nothing is popped.
//
// The host has no second mapping of a page's memory, so a slot is a copy:
// the page's bytes are copied in at kmap_local and the words the mapper
// changed are copied back at kunmap_local (words nobody changed through
// the slot keep what others wrote to the page meanwhile). The code under
// test owns a page while it maps it (locked, or private), which makes the
// copy coherent there; two live mappings of one page do not see each
// other's writes until unmapped. The slot is then made inaccessible
// (PROT_NONE): the host's fault lands in the task (model/sched/
// task_fault.h) and is reported as the kernel's page fault. The KASAN
// shadow of a slot is never poisoned: the kernel's shadow of the fixmap is
// the early zero shadow, so KASAN lets the access through to fault.
//
// On: a debug kernel (KernelConfig::debug) where the host fault landing is
// installed (not under ThreadSanitizer). Off (a production kernel), the
// address is the page's own (a lowmem page on a 64-bit kernel without
// FORCE_MAP: page_address), and only the order is checked.
#ifndef SQUASHLAB_MODEL_KERNEL_KMAP_LOCAL_H_
#define SQUASHLAB_MODEL_KERNEL_KMAP_LOCAL_H_

#include <cstdint>
#include <string>

namespace squashlab {

struct page;

void* kmap_local_page(page* p);
void kunmap_local(const void* addr);

// Whether `addr` lies in a fixmap window of kmap_local slots; if so, what
// the slot is and what it last held (for the page-fault report).
bool KmapLocalSlotFault(uintptr_t addr, std::string* what);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_KERNEL_KMAP_LOCAL_H_
