// SPDX-License-Identifier: GPL-2.0-only
// This file implements squashfs_page_actor (fs/squashfs/page_actor.[ch]):
// the output abstraction of the decompressors. An actor walks either an
// array of PAGE_SIZE buffers (the squashfs cache) or an array of page cache
// pages, which the "special" actor kmap_atomic's one at a time. The
// target_page field is the 2013 patch's addition.
#ifndef SQUASHLAB_MODEL_VARIANTS_PAGE_ACTOR_H_
#define SQUASHLAB_MODEL_VARIANTS_PAGE_ACTOR_H_

#include "model/kernel/check_call.h"

namespace squashlab {

struct page;

struct squashfs_page_actor {
  union {
    void** buffer;
    struct page** page;
  };
  void* pageaddr = nullptr;
  void* (*squashfs_first_page)(squashfs_page_actor*) = nullptr;
  void* (*squashfs_next_page)(squashfs_page_actor*) = nullptr;
  void (*squashfs_finish_page)(squashfs_page_actor*) = nullptr;
  int pages = 0;
  struct page* target_page = nullptr;
  int length = 0;
  int next_page = 0;
};

// kmalloc'd actors, freed by the caller with kfree. A NULL entry of the
// special actor's page array is skipped by writing into a scratch page
// (the mainline actor's behaviour; 3.13 callers never pass NULL entries).
squashfs_page_actor* squashfs_page_actor_init(void** buffer, int pages,
                                              int length);
squashfs_page_actor* squashfs_page_actor_init_special(struct page** page,
                                                      int pages,
                                                      struct page* target_page,
                                                      int length);

// The calls load the actor's function pointers; the variants are built as
// a KASAN kernel is (tools/build/copts.bzl), so an actor freed under its
// user is a report, not a jump through poison.
// On a production kernel a freed actor's bytes may belong to another
// object by then: the call goes through Kernel::CheckCall.
inline void* squashfs_first_page(squashfs_page_actor* a) {
  CheckCall(reinterpret_cast<const void*>(a->squashfs_first_page),
            "squashfs_first_page");
  return a->squashfs_first_page(a);
}
inline void* squashfs_next_page(squashfs_page_actor* a) {
  CheckCall(reinterpret_cast<const void*>(a->squashfs_next_page),
            "squashfs_next_page");
  return a->squashfs_next_page(a);
}
inline void squashfs_finish_page(squashfs_page_actor* a) {
  CheckCall(reinterpret_cast<const void*>(a->squashfs_finish_page),
            "squashfs_finish_page");
  a->squashfs_finish_page(a);
}

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_VARIANTS_PAGE_ACTOR_H_
