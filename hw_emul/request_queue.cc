// SPDX-License-Identifier: GPL-2.0-only
// This file implements bio merging in the device queue, after the kernel's
// elv_merge (back and front merges) and attempt_back_merge /
// attempt_front_merge (a grown request absorbing its neighbour).
#include "hw_emul/request_queue.h"

#include <algorithm>

#include "hw_emul/bio_flags.h"
#include "model/kernel/bio.h"

namespace squashlab {
namespace {

void Absorb(Request* into, std::unique_ptr<Request> from, bool append) {
  if (append) {
    into->bios.insert(into->bios.end(), from->bios.begin(), from->bios.end());
  } else {
    into->bios.insert(into->bios.begin(), from->bios.begin(), from->bios.end());
    into->sector = from->sector;
  }
  into->bytes += from->bytes;
  into->reada = into->reada && from->reada;
  into->sync = into->sync || from->sync;
  into->queued_ns = std::min(into->queued_ns, from->queued_ns);
}

}  // namespace

MergeKind RequestQueue::Add(bio* b, uint64_t now_ns, uint64_t* next_seq,
                            int* absorbed) {
  *absorbed = 0;
  uint64_t start = b->bi_sector;
  uint64_t end = start + b->bi_size / 512;
  bool reada = (b->bi_rw & READA) != 0;
  bool sync = (b->bi_rw & REQ_SYNC) != 0;
  for (size_t i = 0; i < q_.size(); i++) {
    Request& r = *q_[i];
    if (!Fits(r, b->bi_size)) continue;
    if (r.end_sector() == start) {
      r.bios.push_back(b);
      r.bytes += b->bi_size;
      r.reada = r.reada && reada;
      r.sync = r.sync || sync;
      *absorbed = Coalesce(i);
      return MergeKind::kBack;
    }
    if (end == r.sector) {
      r.bios.insert(r.bios.begin(), b);
      r.sector = start;
      r.bytes += b->bi_size;
      r.reada = r.reada && reada;
      r.sync = r.sync || sync;
      *absorbed = Coalesce(i);
      return MergeKind::kFront;
    }
  }
  auto r = std::make_unique<Request>();
  r->seq = (*next_seq)++;
  r->sector = start;
  r->bytes = b->bi_size;
  r->bios.push_back(b);
  r->reada = reada;
  r->sync = sync;
  r->queued_ns = now_ns;
  q_.push_back(std::move(r));
  return MergeKind::kNone;
}

int RequestQueue::Coalesce(size_t i) {
  int joined = 0;
  for (size_t j = 0; j < q_.size();) {
    Request& r = *q_[i];
    Request& o = *q_[j];
    bool touches = j != i && Fits(r, o.bytes) &&
                   (r.end_sector() == o.sector || o.end_sector() == r.sector);
    if (!touches) {
      j++;
      continue;
    }
    bool append = r.end_sector() == o.sector;
    std::unique_ptr<Request> other = std::move(q_[j]);
    q_.erase(q_.begin() + static_cast<long>(j));
    if (j < i) i--;
    Absorb(q_[i].get(), std::move(other), append);
    joined++;
    j = 0;
  }
  return joined;
}

std::unique_ptr<Request> RequestQueue::PopFront() {
  if (q_.empty()) return nullptr;
  std::unique_ptr<Request> r = std::move(q_.front());
  q_.pop_front();
  return r;
}

}  // namespace squashlab
