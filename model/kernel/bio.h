// SPDX-License-Identifier: GPL-2.0-only
// This file implements struct bio: bio_alloc, bio_add_page, submit_bio,
// submit_bio_wait, bio_endio (the driver's completion) and bio_put, with
// checks that each bio is submitted once, completed once and put once.
#ifndef SQUASHLAB_MODEL_KERNEL_BIO_H_
#define SQUASHLAB_MODEL_KERNEL_BIO_H_

#include <atomic>
#include <cstdint>
#include <vector>

#include "model/kernel/block_device.h"
#include "model/kernel/slab.h"

namespace squashlab {

struct page;
struct bio;

inline constexpr int READ = 0;
inline constexpr int WRITE = 1;
inline constexpr int READA = 2;  // read-ahead: a driver may drop it
inline constexpr int BIO_UPTODATE = 0;

using bio_end_io_t = void(bio*, int error);

struct bio_vec {
  page* bv_page = nullptr;  // the target page, or
  char* bv_buf = nullptr;   // a raw buffer (a buffer_head's b_data)
  unsigned bv_len = 0;
  unsigned bv_offset = 0;
};

struct bio {
  uint64_t id = 0;
  sector_t bi_sector = 0;
  block_device* bi_bdev = nullptr;
  int bi_rw = READ;
  unsigned long bi_flags = 0;
  unsigned bi_size = 0;
  unsigned short bi_max_vecs = 0;
  std::vector<bio_vec> bi_io_vec;
  bio_end_io_t* bi_end_io = nullptr;
  void* bi_private = nullptr;
  std::atomic<int> bi_cnt{1};
  bool in_flight = false;  // submitted and not yet completed
  bool freed = false;
};

bio* bio_alloc(gfp_t gfp, unsigned nr_vecs);
// Returns len when the page was added, 0 when the bio is full.
int bio_add_page(bio* b, page* p, unsigned len, unsigned offset);
void submit_bio(int rw, bio* b);
// Submits and sleeps until completion; returns 0 or -EIO.
int submit_bio_wait(int rw, bio* b);
// The driver's completion, in interrupt context.
void bio_endio(bio* b, int error);
void bio_get(bio* b);
void bio_put(bio* b);
// Where a segment's bytes go (for drivers).
char* bio_vec_data(const bio_vec& v);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_KERNEL_BIO_H_
