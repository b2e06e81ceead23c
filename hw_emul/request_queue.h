// SPDX-License-Identifier: GPL-2.0-only
// This file implements Request and RequestQueue: the block layer's queue of
// one device, where adjacent bios merge into requests (back and front
// merges, and a request that comes to touch its neighbour absorbs it) up to
// the device's request size limit, and the host controller fetches from
// the front. Pure data: the device guards it with its lock.
#ifndef SQUASHLAB_HW_EMUL_REQUEST_QUEUE_H_
#define SQUASHLAB_HW_EMUL_REQUEST_QUEUE_H_

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

namespace squashlab {

struct bio;

struct Request {
  uint64_t seq = 0;     // creation order on its device
  uint64_t sector = 0;  // first 512-byte sector
  uint64_t bytes = 0;
  std::vector<bio*> bios;  // in sector order
  bool reada = true;       // every bio is READA (so it may be refused)
  bool sync = false;       // some bio carries REQ_SYNC
  uint64_t queued_ns = 0;
  uint64_t end_sector() const { return sector + bytes / 512; }
};

enum class MergeKind { kNone, kBack, kFront };

class RequestQueue {
 public:
  explicit RequestQueue(uint64_t max_request_bytes)
      : max_bytes_(max_request_bytes) {}

  // Merges `b` into a queued request if one ends where it starts (back) or
  // starts where it ends (front) and the result fits; otherwise queues a new
  // request at the back. `absorbed` counts requests that a merge joined to
  // the merged one. REQUIRES: b is a read of whole sectors.
  MergeKind Add(bio* b, uint64_t now_ns, uint64_t* next_seq, int* absorbed);
  // The oldest request, or nullptr.
  std::unique_ptr<Request> PopFront();
  size_t size() const { return q_.size(); }
  bool empty() const { return q_.empty(); }
  void Clear() { q_.clear(); }
  const std::deque<std::unique_ptr<Request>>& requests() const { return q_; }

 private:
  bool Fits(const Request& r, uint64_t bytes) const {
    return r.bytes + bytes <= max_bytes_;
  }
  // Joins a request that now touches q_[i] into it; returns how many.
  int Coalesce(size_t i);

  uint64_t max_bytes_;
  std::deque<std::unique_ptr<Request>> q_;
};

}  // namespace squashlab

#endif  // SQUASHLAB_HW_EMUL_REQUEST_QUEUE_H_
