// SPDX-License-Identifier: GPL-2.0-only
// This file implements the page, folio, kmap and page-cache calls of the
// header layer over the model's pages: each C page is the shadow of a model
// page (run_state.h), and every call is the model's call on it, with the
// model's checks (VM_BUG_ON_PAGE, Bad page state, KASAN on freed pages).
#include <cstring>

#include "model/kernel/fault_inject.h"
#include "model/kernel/filemap.h"
#include "model/kernel/kernel.h"
#include "model/kernel/kmap_local.h"
#include "model/kernel/page.h"
#include "model/linux/bridge/run_state.h"

using squashlab::Kernel;
using squashlab::linux_bridge::ModelPage;
using squashlab::linux_bridge::Run;

namespace {

squashlab::page* M(const ::page* p, const char* fn) { return ModelPage(p, fn); }
squashlab::page* M(const ::folio* f, const char* fn) {
  return ModelPage(&f->page, fn);
}
::page* C(squashlab::page* p) { return Run().Shadow(p); }
squashlab::address_space* MM(::address_space* m, const char* fn) {
  Kernel::Current().CheckPtr(m, fn);
  return static_cast<squashlab::address_space*>(m->sl_model);
}

}  // namespace

extern "C" {

struct page* alloc_page(gfp_t gfp) {
  // __alloc_pages -> prepare_alloc_pages -> should_fail_alloc_page
  // (mm/page_alloc.c).
  if (squashlab::should_fail_alloc_page(gfp, 0)) return nullptr;
  return C(squashlab::alloc_page(gfp));
}
void __free_page(struct page* p) { squashlab::put_page(M(p, "__free_page")); }
void get_page(struct page* p) { squashlab::get_page(M(p, "get_page")); }
void put_page(struct page* p) { squashlab::put_page(M(p, "put_page")); }
void lock_page(struct page* p) { squashlab::lock_page(M(p, "lock_page")); }
int trylock_page(struct page* p) {
  return squashlab::trylock_page(M(p, "trylock_page"));
}
void unlock_page(struct page* p) {
  squashlab::unlock_page(M(p, "unlock_page"));
}
int PageUptodate(struct page* p) {
  return squashlab::PageUptodate(M(p, "PageUptodate"));
}
void SetPageUptodate(struct page* p) {
  squashlab::SetPageUptodate(M(p, "SetPageUptodate"));
}
void ClearPageUptodate(struct page* p) {
  squashlab::ClearPageUptodate(M(p, "ClearPageUptodate"));
}
int PageLocked(struct page* p) {
  return squashlab::PageLocked(M(p, "PageLocked"));
}
int PageError(struct page* p) {
  return squashlab::PageError(M(p, "PageError"));
}
void SetPageError(struct page* p) {
  squashlab::SetPageError(M(p, "SetPageError"));
}
void* kmap(struct page* p) { return squashlab::kmap(M(p, "kmap")); }
void kunmap(struct page* p) { squashlab::kunmap(M(p, "kunmap")); }
void* kmap_atomic(struct page* p) {
  return squashlab::kmap_atomic(M(p, "kmap_atomic"));
}
void kunmap_atomic(void* addr) { squashlab::kunmap_atomic(addr); }
// kmap_local_page on a 64-bit kernel changes neither preemption nor
// migration; DEBUG_KMAP_LOCAL_FORCE_MAP's order check is the model's.
void* kmap_local_page(struct page* p) {
  return squashlab::kmap_local_page(M(p, "kmap_local_page"));
}
void kunmap_local(const void* addr) { squashlab::kunmap_local(addr); }
void* page_address(const struct page* p) {
  return squashlab::page_address(M(p, "page_address"));
}
void flush_dcache_page(struct page* p) {
  squashlab::flush_dcache_page(M(p, "flush_dcache_page"));
}
void memzero_page(struct page* p, size_t offset, size_t len) {
  char* a = static_cast<char*>(squashlab::page_address(M(p, "memzero_page")));
  if (offset + len > squashlab::PAGE_SIZE)
    Kernel::Current().Bug(
        squashlab::ReportKind::kPageBug,
        "kernel BUG in memzero_page: range beyond the page",
        "offset " + std::to_string(offset) + " len " + std::to_string(len));
  std::memset(a + offset, 0, len);
  squashlab::flush_dcache_page(M(p, "memzero_page"));
}

void folio_lock(struct folio* f) { lock_page(&f->page); }
void folio_unlock(struct folio* f) { unlock_page(&f->page); }
void folio_get(struct folio* f) { get_page(&f->page); }
void folio_put(struct folio* f) { put_page(&f->page); }
bool folio_test_uptodate(struct folio* f) {
  return squashlab::PageUptodate(M(f, "folio_test_uptodate"));
}
bool folio_test_locked(struct folio* f) {
  return squashlab::PageLocked(M(f, "folio_test_locked"));
}
void folio_mark_uptodate(struct folio* f) { SetPageUptodate(&f->page); }
void folio_end_read(struct folio* f, bool success) {
  squashlab::folio_end_read(M(f, "folio_end_read"), success);
}
void flush_dcache_folio(struct folio* f) { flush_dcache_page(&f->page); }
void* kmap_local_folio(struct folio* f, size_t offset) {
  return static_cast<char*>(kmap_local_page(&f->page)) + offset;
}
void folio_zero_segment(struct folio* f, size_t start, size_t end) {
  memzero_page(&f->page, start, end - start);
}

struct page* find_get_page(struct address_space* m, pgoff_t index) {
  return C(squashlab::find_get_page(MM(m, "find_get_page"), index));
}
struct page* find_lock_page(struct address_space* m, pgoff_t index) {
  return C(squashlab::find_lock_page(MM(m, "find_lock_page"), index));
}
int mapping_mapped(struct address_space* m) {
  return squashlab::mapping_mapped(MM(m, "mapping_mapped"));
}
struct page* grab_cache_page_nowait(struct address_space* m, pgoff_t index) {
  return C(squashlab::grab_cache_page_nowait(MM(m, "grab_cache_page_nowait"),
                                             index));
}
int add_to_page_cache_lru(struct page* p, struct address_space* m,
                          pgoff_t index, gfp_t gfp) {
  int err = squashlab::add_to_page_cache_lru(M(p, "add_to_page_cache_lru"),
                                             MM(m, "add_to_page_cache_lru"),
                                             index, gfp);
  C(M(p, "add_to_page_cache_lru"));  // refresh mapping and index
  return err;
}
struct folio* __filemap_get_folio(struct address_space* m, pgoff_t index,
                                  unsigned int fgp, gfp_t) {
  struct page* p = nullptr;
  if ((fgp & 0x4u) && (fgp & 0x2u))  // FGP_CREAT | FGP_LOCK
    p = grab_cache_page_nowait(m, index);
  else if (fgp & 0x2u)
    p = find_lock_page(m, index);
  else
    p = find_get_page(m, index);
  if (p == nullptr)
    return reinterpret_cast<struct folio*>(static_cast<intptr_t>(-ENOENT));
  return reinterpret_cast<struct folio*>(p);
}

}  // extern "C"
