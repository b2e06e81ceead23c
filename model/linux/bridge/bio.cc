// SPDX-License-Identifier: GPL-2.0-only
// This file implements the block-layer calls of the header layer: the C
// bio keeps the kernel's shape (vectors, iterator, chaining, remaining
// count); submission turns the range its iterator covers into a model bio
// on the model's block device, and the model's completion (interrupt
// context) sets bi_status and runs bio_endio on the C bio.
#include "model/kernel/bio.h"

#include <cstring>

#include "model/kernel/block_device.h"
#include "model/kernel/completion.h"
#include "model/kernel/fault_inject.h"
#include "model/kernel/kernel.h"
#include "model/kernel/page.h"
#include "model/kernel/slab.h"
#include "model/linux/bridge/run_state.h"

using squashlab::Kernel;
using squashlab::ReportKind;
using squashlab::linux_bridge::ModelPage;

extern "C" {
struct bio_set fs_bio_set;
void bio_endio(struct bio* bio);
void bio_put(struct bio* bio);
}

namespace {

constexpr unsigned kPage = 4096;
constexpr unsigned char kStatusIoErr = 10;  // BLK_STS_IOERR

void BioBug(struct bio* b, const char* fn, const std::string& what) {
  Kernel::Current().Bug(ReportKind::kAssertion,
                        std::string("kernel BUG in ") + fn,
                        std::string(fn) + ": " + what + " (bio sector " +
                            std::to_string(b->bi_iter.bi_sector) + ")");
}

// The model bio for the bytes a C bio's iterator covers.
squashlab::bio* ToModel(struct bio* b, const char* fn) {
  Kernel& k = Kernel::Current();
  k.CheckPtr(b, fn);
  if (b->bi_bdev == nullptr || b->bi_bdev->sl_model == nullptr)
    BioBug(b, fn, "no block device");
  squashlab::bio* mb = squashlab::bio_alloc(squashlab::GFP_NOFS, b->bi_vcnt);
  unsigned idx = b->bi_iter.bi_idx, done = b->bi_iter.bi_bvec_done;
  unsigned left = b->bi_iter.bi_size;
  while (left > 0) {
    if (idx >= b->bi_vcnt) BioBug(b, fn, "iterator beyond the vectors");
    const struct bio_vec& v = b->bi_io_vec[idx];
    unsigned len = v.bv_len - done;
    if (len > left) len = left;
    squashlab::bio_add_page(mb, ModelPage(v.bv_page, fn), len,
                            v.bv_offset + done);
    left -= len;
    done += len;
    if (done == v.bv_len) {
      idx++;
      done = 0;
    }
  }
  mb->bi_sector = b->bi_iter.bi_sector;
  mb->bi_bdev = static_cast<squashlab::block_device*>(b->bi_bdev->sl_model);
  return mb;
}

void EndIo(squashlab::bio* mb, int error) {
  auto* b = static_cast<struct bio*>(mb->bi_private);
  if (error) b->bi_status = kStatusIoErr;
  squashlab::bio_put(mb);
  bio_endio(b);
}

void ChainEndIo(struct bio*) {}  // marks a chained child (bio_endio walks up)

struct WaitContext {
  squashlab::completion done;
};

// The bio's memory from the model's heap. kmemleak's backtrace names the
// caller that holds the bio, not the allocator.
struct bio* BioKmalloc(unsigned short nr_vecs, gfp_t gfp) {
  size_t size = sizeof(struct bio) + nr_vecs * sizeof(struct bio_vec);
  return static_cast<struct bio*>(squashlab::kmalloc(
      size, gfp, squashlab::linux_bridge::Run().CallerOr("bio_kmalloc")));
}

void WaitEndIo(struct bio* b) {
  squashlab::complete(&static_cast<WaitContext*>(b->bi_private)->done);
}

}  // namespace

extern "C" {

struct bio* bio_kmalloc(unsigned short nr_vecs, gfp_t gfp) {
  // kmalloc: failslab may fail it (block/bio.c, bio_kmalloc).
  if (squashlab::should_failslab(
          gfp, sizeof(struct bio) + nr_vecs * sizeof(struct bio_vec)))
    return nullptr;
  return BioKmalloc(nr_vecs, gfp);
}

void bio_init(struct bio* bio, struct block_device* bdev, struct bio_vec* table,
              unsigned short max_vecs, blk_opf_t opf) {
  std::memset(bio, 0, sizeof *bio);
  bio->bi_bdev = bdev;
  bio->bi_opf = opf;
  bio->bi_io_vec = table;
  bio->bi_max_vecs = max_vecs;
  bio->__bi_remaining.counter = 1;
  bio->__bi_cnt.counter = 1;
}

void bio_uninit(struct bio*) {}

struct bio* bio_alloc(struct block_device* bdev, unsigned short nr_vecs,
                      blk_opf_t opf, gfp_t gfp) {
  // From the bio_set's mempool: with __GFP_DIRECT_RECLAIM it waits for an
  // element rather than fail (mm/mempool.c, mempool_alloc), so no fault
  // plan fails it.
  struct bio* b = BioKmalloc(nr_vecs, gfp);
  if (b == nullptr) return nullptr;
  bio_init(b, bdev, b->bi_inline_vecs, nr_vecs, opf);
  b->bi_pool = &fs_bio_set;
  return b;
}

// A clone shares the source's vectors and copies its iterator.
struct bio* bio_alloc_clone(struct block_device* bdev, struct bio* src,
                            gfp_t gfp, struct bio_set* bs) {
  struct bio* b = bio_alloc(bdev, 0, src->bi_opf, gfp);
  if (b == nullptr) return nullptr;
  b->bi_pool = bs;
  b->bi_io_vec = src->bi_io_vec;
  b->bi_vcnt = src->bi_vcnt;
  b->bi_iter = src->bi_iter;
  b->sl_parent_clone = src;
  return b;
}

void __bio_add_page(struct bio* bio, struct page* page, unsigned int len,
                    unsigned int off) {
  Kernel::Current().CheckPtr(page, "__bio_add_page");
  if (bio->bi_vcnt >= bio->bi_max_vecs)
    BioBug(bio, "__bio_add_page", "WARN_ON_ONCE(bio_full(bio, len))");
  if (off + len > kPage)
    BioBug(bio, "__bio_add_page", "a vector spanning pages");
  bio->bi_io_vec[bio->bi_vcnt++] = {page, len, off};
  bio->bi_iter.bi_size += len;
}

int bio_add_page(struct bio* bio, struct page* page, unsigned int len,
                 unsigned int off) {
  if (bio->bi_vcnt >= bio->bi_max_vecs) return 0;
  __bio_add_page(bio, page, len, off);
  return static_cast<int>(len);
}

// Advances the iterator by offset sectors and limits it to size sectors.
void bio_trim(struct bio* bio, sector_t offset, sector_t size) {
  uint64_t skip = offset << 9;
  bio->bi_iter.bi_sector += offset;
  while (skip > 0) {
    const struct bio_vec& v = bio->bi_io_vec[bio->bi_iter.bi_idx];
    uint64_t rest = v.bv_len - bio->bi_iter.bi_bvec_done;
    if (skip < rest) {
      bio->bi_iter.bi_bvec_done += static_cast<unsigned>(skip);
      break;
    }
    skip -= rest;
    bio->bi_iter.bi_idx++;
    bio->bi_iter.bi_bvec_done = 0;
  }
  bio->bi_iter.bi_size = static_cast<unsigned>(size << 9);
}

void bio_chain(struct bio* bio, struct bio* parent) {
  if (bio->bi_private || (bio->bi_end_io && bio->bi_end_io != ChainEndIo))
    BioBug(bio, "bio_chain", "BUG_ON(bio->bi_private || bio->bi_end_io)");
  bio->bi_private = parent;
  bio->bi_end_io = ChainEndIo;
  __atomic_fetch_add(&parent->__bi_remaining.counter, 1, __ATOMIC_SEQ_CST);
}

// block/bio.c's bio_endio: a chained child passes its status to the parent,
// is put, and the parent completes when its last child has.
void bio_endio(struct bio* bio) {
  for (;;) {
    if (__atomic_sub_fetch(&bio->__bi_remaining.counter, 1, __ATOMIC_SEQ_CST) >
        0)
      return;
    if (bio->bi_end_io != ChainEndIo) break;
    auto* parent = static_cast<struct bio*>(bio->bi_private);
    if (bio->bi_status && !parent->bi_status)
      parent->bi_status = bio->bi_status;
    bio_put(bio);
    bio = parent;
  }
  if (bio->bi_end_io) bio->bi_end_io(bio);
}

void submit_bio(struct bio* bio) {
  squashlab::bio* mb = ToModel(bio, "submit_bio");
  mb->bi_private = bio;
  mb->bi_end_io = EndIo;
  squashlab::submit_bio(squashlab::READ, mb);
}

// block/bio.c's submit_bio_wait: the bio's own completion (after every
// bio chained to it) wakes the submitter.
int submit_bio_wait(struct bio* bio) {
  Kernel::Current().MightSleep("submit_bio_wait");
  WaitContext w;
  squashlab::init_completion(&w.done);
  bio->bi_private = &w;
  bio->bi_end_io = WaitEndIo;
  submit_bio(bio);
  squashlab::wait_for_completion(&w.done);
  return bio->bi_status ? -EIO : 0;
}

void bio_put(struct bio* bio) {
  Kernel::Current().CheckPtr(bio, "bio_put");
  if (bio->bi_pool == nullptr) return;  // bio_kmalloc: the caller kfrees it
  if (__atomic_sub_fetch(&bio->__bi_cnt.counter, 1, __ATOMIC_SEQ_CST) == 0)
    squashlab::kfree(bio);
}

void bio_free_pages(struct bio* bio) {
  for (unsigned i = 0; i < bio->bi_vcnt; i++)
    squashlab::put_page(ModelPage(bio->bi_io_vec[i].bv_page, "bio_free_pages"));
}

u64 bdev_nr_bytes(struct block_device* bdev) { return bdev->sl_nr_bytes; }

unsigned int bdev_logical_block_size(struct block_device* bdev) {
  return static_cast<squashlab::block_device*>(bdev->sl_model)
      ->logical_block_size;
}

}  // extern "C"
