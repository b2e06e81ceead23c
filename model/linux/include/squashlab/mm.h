/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * This file implements the page, folio and page-cache calls of the kernel
 * headers fs/squashfs uses (include/linux/mm.h, pagemap.h, highmem.h) over
 * the model's pages: reference counts, the page lock, flags, kmap, the
 * page cache and the readahead_control of a ->readahead call.
 */
#ifndef SQUASHLAB_LINUX_MM_H_
#define SQUASHLAB_LINUX_MM_H_

#include <squashlab/slab.h>

#define PAGE_SHIFT 12
#define PAGE_SIZE (1UL << PAGE_SHIFT)
#define PAGE_MASK (~(PAGE_SIZE - 1))
#define PAGE_SECTORS (PAGE_SIZE >> 9)
#define SECTOR_SHIFT 9
#define SECTOR_SIZE 512
#define MAX_LFS_FILESIZE ((loff_t)LLONG_MAX)
#define OFFSET_MAX ((loff_t)LLONG_MAX)

struct page *alloc_page(gfp_t gfp);
void __free_page(struct page *p);
void get_page(struct page *p);
void put_page(struct page *p);
void lock_page(struct page *p);
int trylock_page(struct page *p);
void unlock_page(struct page *p);
int PageUptodate(struct page *p);
void SetPageUptodate(struct page *p);
void ClearPageUptodate(struct page *p);
int PageLocked(struct page *p);
int PageError(struct page *p);
void SetPageError(struct page *p);
void *kmap(struct page *p);
void kunmap(struct page *p);
void *kmap_atomic(struct page *p);
void kunmap_atomic(void *addr);
void *kmap_local_page(struct page *p);
void kunmap_local(const void *addr);
void *page_address(const struct page *p);
void flush_dcache_page(struct page *p);
void memzero_page(struct page *p, size_t offset, size_t len);
#define alloc_page(g) SL_AT(alloc_page(g))
#define put_page(p) SL_AT(put_page(p))
#define get_page(p) SL_AT(get_page(p))
#define lock_page(p) SL_AT(lock_page(p))
#define trylock_page(p) SL_AT(trylock_page(p))
#define unlock_page(p) SL_AT(unlock_page(p))
#define SetPageUptodate(p) SL_AT(SetPageUptodate(p))
#define SetPageError(p) SL_AT(SetPageError(p))
#define kmap_atomic(p) SL_AT(kmap_atomic(p))
#define kunmap_atomic(a) SL_AT(kunmap_atomic(a))
#define kmap_local_page(p) SL_AT(kmap_local_page(p))
#define kunmap_local(a) SL_AT(kunmap_local(a))
#define memzero_page(p, o, l) SL_AT(memzero_page(p, o, l))
#define flush_dcache_page(p) SL_AT(flush_dcache_page(p))

static inline struct folio *page_folio(struct page *p) {
  return (struct folio *)p;
}
#define folio_page(f, n) (&(f)->page)
static inline loff_t folio_pos(struct folio *f) {
  return (loff_t)f->index << PAGE_SHIFT;
}
static inline size_t folio_size(struct folio *f) {
  (void)f;
  return PAGE_SIZE;
}
static inline long folio_nr_pages(struct folio *f) {
  (void)f;
  return 1;
}
void folio_lock(struct folio *f);
void folio_unlock(struct folio *f);
void folio_get(struct folio *f);
void folio_put(struct folio *f);
bool folio_test_uptodate(struct folio *f);
bool folio_test_locked(struct folio *f);
void folio_mark_uptodate(struct folio *f);
void folio_end_read(struct folio *f, bool success);
void flush_dcache_folio(struct folio *f);
void *kmap_local_folio(struct folio *f, size_t offset);
void folio_zero_segment(struct folio *f, size_t start, size_t end);
#define folio_lock(f) SL_AT(folio_lock(f))
#define folio_unlock(f) SL_AT(folio_unlock(f))
#define folio_put(f) SL_AT(folio_put(f))
#define folio_mark_uptodate(f) SL_AT(folio_mark_uptodate(f))
#define folio_end_read(f, s) SL_AT(folio_end_read(f, s))
#define kmap_local_folio(f, o) SL_AT(kmap_local_folio(f, o))

/* The page cache. */
#define FGP_ACCESSED 0x1u
#define FGP_LOCK 0x2u
#define FGP_CREAT 0x4u
#define FGP_NOWAIT 0x20u
struct page *find_get_page(struct address_space *m, pgoff_t index);
struct page *find_lock_page(struct address_space *m, pgoff_t index);
struct page *grab_cache_page_nowait(struct address_space *m, pgoff_t index);
int add_to_page_cache_lru(struct page *p, struct address_space *m,
                          pgoff_t index, gfp_t gfp);
struct folio *__filemap_get_folio(struct address_space *m, pgoff_t index,
                                  unsigned int fgp, gfp_t gfp);
#define find_get_page(m, i) SL_AT(find_get_page(m, i))
#define grab_cache_page_nowait(m, i) SL_AT(grab_cache_page_nowait(m, i))
#define add_to_page_cache_lru(p, m, i, g) \
  SL_AT(add_to_page_cache_lru(p, m, i, g))
#define __filemap_get_folio(m, i, f, g) SL_AT(__filemap_get_folio(m, i, f, g))
/* Whether a vma maps the file (include/linux/fs.h). */
int mapping_mapped(struct address_space *m);
static inline gfp_t mapping_gfp_mask(struct address_space *m) {
  return m->gfp_mask;
}
static inline void mapping_set_gfp_mask(struct address_space *m, gfp_t g) {
  m->gfp_mask = g;
}

/* readahead_control (include/linux/pagemap.h). */
unsigned int __readahead_batch(struct readahead_control *rac,
                               struct page **array, unsigned int array_sz);
void readahead_expand(struct readahead_control *rac, loff_t new_start,
                      size_t new_len);
struct page *readahead_page(struct readahead_control *rac);
struct folio *readahead_folio(struct readahead_control *rac);
#define __readahead_batch(r, a, n) SL_AT(__readahead_batch(r, a, n))
#define readahead_expand(r, s, l) SL_AT(readahead_expand(r, s, l))
static inline loff_t readahead_pos(struct readahead_control *rac) {
  return (loff_t)rac->_index * PAGE_SIZE;
}
static inline size_t readahead_length(struct readahead_control *rac) {
  return (size_t)rac->_nr_pages * PAGE_SIZE;
}
static inline pgoff_t readahead_index(struct readahead_control *rac) {
  return rac->_index;
}
static inline unsigned int readahead_count(struct readahead_control *rac) {
  return rac->_nr_pages;
}
static inline size_t readahead_batch_length(struct readahead_control *rac) {
  return (size_t)rac->_batch_count * PAGE_SIZE;
}

#endif /* SQUASHLAB_LINUX_MM_H_ */
