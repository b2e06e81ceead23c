// SPDX-License-Identifier: GPL-2.0-only
// This file implements kmap_local_page and kunmap_local as a 64-bit kernel
// with CONFIG_DEBUG_KMAP_LOCAL_FORCE_MAP runs them (mm/highmem.c of Linux
// 6.12, __kmap_local_pfn_prot / kunmap_local_indexed): every mapping is
// pushed on the task's stack of local mappings, and an unmap must name the
// innermost one (LIFO): another is WARN_ON_ONCE(addr != __fix_to_virt(
// FIX_KMAP_BEGIN + idx)), after which the innermost slot is popped all the
// same. The address handed out is the page's own (no alias: a use after
// kunmap_local is not caught here).
#ifndef SQUASHLAB_MODEL_KERNEL_KMAP_LOCAL_H_
#define SQUASHLAB_MODEL_KERNEL_KMAP_LOCAL_H_

namespace squashlab {

struct page;

void* kmap_local_page(page* p);
void kunmap_local(const void* addr);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_KERNEL_KMAP_LOCAL_H_
