// SPDX-License-Identifier: GPL-2.0-only
// This file implements the two page actors: over cache buffers and over
// page cache pages (kmap_atomic'd while the decompressor writes them).
#include "model/variants/page_actor.h"

#include "model/kernel/kernel.h"
#include "model/kernel/page.h"
#include "model/kernel/slab.h"

namespace squashlab {
namespace {

thread_local char g_scratch[PAGE_SIZE];  // where NULL pages' bytes go

void* cache_first_page(squashfs_page_actor* a) {
  a->next_page = 1;
  return a->buffer[0];
}
void* cache_next_page(squashfs_page_actor* a) {
  return a->next_page == a->pages ? nullptr : a->buffer[a->next_page++];
}
void cache_finish_page(squashfs_page_actor*) {}

// Loads are KASAN-checked: an actor may be freed under a racing user.
void* MapNext(squashfs_page_actor* a) {
  page* p = a->page[a->next_page++];
  if (p == nullptr) {
    a->pageaddr = nullptr;
    return g_scratch;
  }
  a->pageaddr = kmap_atomic(p);
  return a->pageaddr;
}
void* direct_first_page(squashfs_page_actor* a) {
  a->next_page = 0;
  return MapNext(a);
}
void* direct_next_page(squashfs_page_actor* a) {
  if (a->pageaddr) kunmap_atomic(a->pageaddr);
  a->pageaddr = nullptr;
  return a->next_page == a->pages ? nullptr : MapNext(a);
}
void direct_finish_page(squashfs_page_actor* a) {
  if (a->pageaddr) kunmap_atomic(a->pageaddr);
  a->pageaddr = nullptr;
}

}  // namespace

squashfs_page_actor* squashfs_page_actor_init(void** buffer, int pages,
                                              int length) {
  auto* a = static_cast<squashfs_page_actor*>(
      kmalloc(sizeof(squashfs_page_actor), GFP_KERNEL));
  a->buffer = buffer;
  a->pageaddr = nullptr;
  a->length = length ? length : pages * static_cast<int>(PAGE_SIZE);
  a->pages = pages;
  a->target_page = nullptr;
  a->next_page = 0;
  a->squashfs_first_page = cache_first_page;
  a->squashfs_next_page = cache_next_page;
  a->squashfs_finish_page = cache_finish_page;
  return a;
}

squashfs_page_actor* squashfs_page_actor_init_special(struct page** page,
                                                      int pages,
                                                      struct page* target_page,
                                                      int length) {
  auto* a = static_cast<squashfs_page_actor*>(
      kmalloc(sizeof(squashfs_page_actor), GFP_KERNEL));
  a->page = page;
  a->pageaddr = nullptr;
  a->length = length ? length : pages * static_cast<int>(PAGE_SIZE);
  a->pages = pages;
  a->target_page = target_page;
  a->next_page = 0;
  a->squashfs_first_page = direct_first_page;
  a->squashfs_next_page = direct_next_page;
  a->squashfs_finish_page = direct_finish_page;
  return a;
}

}  // namespace squashlab
