// SPDX-License-Identifier: GPL-2.0-only
// This file implements bios and their completion.
#include "model/kernel/bio.h"

#include "model/kernel/completion.h"
#include "model/kernel/filemap.h"
#include "model/kernel/kernel.h"
#include "model/kernel/kernel_internal.h"
#include "model/kernel/lock_hooks.h"
#include "model/kernel/page.h"
#include "model/kernel/quiescence.h"

namespace squashlab {
namespace {

[[noreturn]] void BioBug(Check check, bio* b, const char* fn,
                         const char* what) {
  Kernel::Current().Bug(check, std::string("kernel BUG in ") + fn + ": " + what,
                        std::string("kernel BUG at block/bio.c! ") + fn + ": " +
                            what + " (bio " + std::to_string(b->id) + ")");
}

void CheckBio(bio* b, const char* fn) {
  Kernel& k = Kernel::Current();
  k.CheckPtr(b, fn);
  k.Point(fn, b->id);
  if (b->freed) {
    k.Bug(Check::kBioUseAfterFree,
          std::string("BUG: KASAN: use-after-free in ") + fn,
          std::string("BUG: KASAN: use-after-free in ") + fn + ": bio " +
              std::to_string(b->id) + " was freed by bio_put");
  }
}

struct SubmitWait {
  completion done;
  int error = 0;
};

void submit_bio_wait_endio(bio* b, int error) {
  auto* w = static_cast<SubmitWait*>(b->bi_private);
  if (error) w->error = error;
  complete(&w->done);
}

}  // namespace

bio* bio_alloc(gfp_t gfp, unsigned nr_vecs) {
  Kernel& k = Kernel::Current();
  if (gfp & __GFP_WAIT) k.MightSleep("bio_alloc");
  k.Point("bio_alloc", nr_vecs);
  bio* b = KernelInternal::AllocBio(k);
  b->bi_max_vecs = nr_vecs;
  b->bi_io_vec.reserve(nr_vecs);
  return b;
}

int bio_add_page(bio* b, page* p, unsigned len, unsigned offset) {
  CheckBio(b, "bio_add_page");
  CheckPage(p, "bio_add_page");
  if (b->bi_io_vec.size() >= b->bi_max_vecs) return 0;
  if (b->in_flight)
    BioBug(Check::kBioAddPageSubmitted, b, "bio_add_page",
           "bio already submitted");
  b->bi_io_vec.push_back(bio_vec{p, nullptr, len, offset});
  b->bi_size += len;
  return static_cast<int>(len);
}

void submit_bio(int rw, bio* b) {
  CheckBio(b, "submit_bio");
  if (b->bi_end_io == nullptr)
    BioBug(Check::kSubmitBioNoEndIo, b, "submit_bio", "bi_end_io not set");
  if (b->bi_bdev == nullptr || b->bi_bdev->driver == nullptr)
    BioBug(Check::kSubmitBioNoBdev, b, "submit_bio", "no block device");
  if (b->in_flight)
    BioBug(Check::kSubmitBioTwice, b, "submit_bio", "bio submitted twice");
  b->bi_rw = rw;
  b->in_flight = true;
  kcsan_release(b);  // the submitter's writes happen before the end_io
  b->bi_bdev->driver->submit(b);
}

int submit_bio_wait(int rw, bio* b) {
  Kernel::Current().MightSleep("submit_bio_wait");
  SubmitWait w;
  init_completion(&w.done);
  b->bi_private = &w;
  b->bi_end_io = submit_bio_wait_endio;
  submit_bio(rw, b);
  wait_for_completion(&w.done);
  return w.error ? -EIO : 0;
}

void bio_endio(bio* b, int error) {
  CheckBio(b, "bio_endio");
  if (!b->in_flight)
    BioBug(Check::kBioEndioNotInFlight, b, "bio_endio",
           "completion of a bio not in flight");
  b->in_flight = false;
  kcsan_acquire(b);
  if (error)
    b->bi_flags &= ~(1UL << BIO_UPTODATE);
  else
    b->bi_flags |= 1UL << BIO_UPTODATE;
  b->bi_end_io(b, error);
}

void bio_get(bio* b) {
  CheckBio(b, "bio_get");
  b->bi_cnt.fetch_add(1);
}

void bio_put(bio* b) {
  CheckBio(b, "bio_put");
  int old = b->bi_cnt.fetch_sub(1);
  if (old <= 0)
    BioBug(Check::kBioPutZero, b, "bio_put",
           "BIO_BUG_ON(!atomic_read(&bio->bi_cnt))");
  if (old == 1) KernelInternal::FreeBio(Kernel::Current(), b);
}

char* bio_vec_data(const bio_vec& v) {
  return v.bv_page ? v.bv_page->data + v.bv_offset : v.bv_buf + v.bv_offset;
}

// At quiescence every bio was put.
void CheckBiosAtQuiescence(Kernel& k) {
  for (auto& b : KernelInternal::Bios(k)) {
    if (!b->freed)
      return k.Lint(Check::kBioLeak, "bio leak at quiescence",
                    "bio " + std::to_string(b->id) + " never bio_put");
  }
}
const QuiescenceCheckRegistration kBiosAtQuiescence(30, "bios",
                                                    CheckBiosAtQuiescence);

}  // namespace squashlab
