// SPDX-License-Identifier: GPL-2.0-only
// This file implements read_mapping_page (mm/filemap.c do_read_cache_folio
// and its filemap_read_folio).
#include "model/mm/read_mapping.h"

#include <cerrno>

#include "model/kernel/filemap.h"
#include "model/kernel/kernel.h"
#include "model/kernel/page.h"

namespace squashlab {
namespace {

// filemap_read_folio: the filler (->read_folio) unlocks the page when its
// read ends; a page still !uptodate then is -EIO.
int ReadFolio(address_space* mapping, page* p) {
  if (Kernel::Current().config().mm_era == MmEra::k6_1) ClearPageError(p);
  const int error = mapping->a_ops->readpage(nullptr, p);
  if (error) return error;
  wait_on_page_locked(p);
  return PageUptodate(p) ? 0 : -EIO;
}

}  // namespace

page* read_mapping_page(address_space* mapping, pgoff_t index, int* err) {
  for (;;) {
    page* p = find_get_page(mapping, index);
    if (p == nullptr) {
      p = page_cache_alloc(mapping);
      if (p == nullptr) {
        *err = -ENOMEM;
        return nullptr;
      }
      const int e = add_to_page_cache_lru(p, mapping, index, GFP_KERNEL);
      if (e == -EEXIST) {  // another task added it first: look again
        put_page(p);
        continue;
      }
      const int r = e ? e : ReadFolio(mapping, p);
      if (r) {
        put_page(p);
        *err = r;
        return nullptr;
      }
      return p;
    }
    if (PageUptodate(p)) return p;
    if (!trylock_page(p)) {  // folio_put_wait_locked, then look again
      wait_on_page_locked(p);
      put_page(p);
      continue;
    }
    if (p->mapping == nullptr) {  // truncated meanwhile
      unlock_page(p);
      put_page(p);
      continue;
    }
    if (PageUptodate(p)) {
      unlock_page(p);
      return p;
    }
    const int r = ReadFolio(mapping, p);
    if (r) {
      put_page(p);
      *err = r;
      return nullptr;
    }
    return p;
  }
}

}  // namespace squashlab
