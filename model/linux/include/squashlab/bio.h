/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * This file implements the block-layer calls of the kernel headers
 * fs/squashfs uses (include/linux/bio.h, bvec.h, blkdev.h): the bio and its
 * vectors are the kernel's shapes and are walked here as the kernel walks
 * them; submission hands a bio to the model's block device, and its
 * completion runs bi_end_io in interrupt context.
 */
#ifndef SQUASHLAB_LINUX_BIO_H_
#define SQUASHLAB_LINUX_BIO_H_

#include <squashlab/mm.h>

#define REQ_OP_READ 0u
#define BLK_STS_OK 0
#define BLK_STS_IOERR 10

extern struct bio_set fs_bio_set;

struct bio *bio_kmalloc(unsigned short nr_vecs, gfp_t gfp);
void bio_init(struct bio *bio, struct block_device *bdev, struct bio_vec *table,
              unsigned short max_vecs, blk_opf_t opf);
void bio_uninit(struct bio *bio);
struct bio *bio_alloc(struct block_device *bdev, unsigned short nr_vecs,
                      blk_opf_t opf, gfp_t gfp);
struct bio *bio_alloc_clone(struct block_device *bdev, struct bio *src,
                            gfp_t gfp, struct bio_set *bs);
void __bio_add_page(struct bio *bio, struct page *page, unsigned int len,
                    unsigned int off);
int bio_add_page(struct bio *bio, struct page *page, unsigned int len,
                 unsigned int off);
void bio_trim(struct bio *bio, sector_t offset, sector_t size);
void bio_chain(struct bio *bio, struct bio *parent);
void submit_bio(struct bio *bio);
int submit_bio_wait(struct bio *bio);
void bio_endio(struct bio *bio);
void bio_put(struct bio *bio);
void bio_free_pages(struct bio *bio);
u64 bdev_nr_bytes(struct block_device *bdev);
unsigned int bdev_logical_block_size(struct block_device *bdev);
#define bio_kmalloc(n, g) SL_AT(bio_kmalloc(n, g))
#define bio_alloc_clone(b, s, g, bs) SL_AT(bio_alloc_clone(b, s, g, bs))
#define submit_bio(b) SL_AT(submit_bio(b))
#define submit_bio_wait(b) SL_AT(submit_bio_wait(b))
#define bio_put(b) SL_AT(bio_put(b))
#define bio_free_pages(b) SL_AT(bio_free_pages(b))

static inline int blk_status_to_errno(blk_status_t s) { return s ? -EIO : 0; }

static inline struct bio_vec *bvec_init_iter_all(struct bvec_iter_all *it) {
  it->done = 0;
  it->idx = 0;
  return &it->bv;
}
/* The next page-sized piece of the bio's vectors (bvec_advance). */
static inline bool bio_next_segment(const struct bio *bio,
                                    struct bvec_iter_all *it) {
  const struct bio_vec *v;
  unsigned int off;
  if (it->idx >= bio->bi_vcnt) return false;
  v = &bio->bi_io_vec[it->idx];
  off = v->bv_offset + it->done;
  it->bv.bv_page = v->bv_page; /* vectors never span pages here */
  it->bv.bv_offset = off & ~PAGE_MASK;
  it->bv.bv_len =
      min_t(unsigned int, PAGE_SIZE - it->bv.bv_offset, v->bv_len - it->done);
  it->done += it->bv.bv_len;
  if (it->done == v->bv_len) {
    it->idx++;
    it->done = 0;
  }
  return true;
}
#define bio_for_each_segment_all(bvl, bio, iter) \
  for (bvl = bvec_init_iter_all(&iter); bio_next_segment((bio), &iter);)
static inline void *bvec_virt(struct bio_vec *bv) {
  return (char *)page_address(bv->bv_page) + bv->bv_offset;
}

#endif /* SQUASHLAB_LINUX_BIO_H_ */
