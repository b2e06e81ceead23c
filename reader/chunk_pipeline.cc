// SPDX-License-Identifier: GPL-2.0-only
// This file implements ChunkPipeline. Slots form a ring of `window` entries;
// the caller fills slot tail, workers claim slots in order, and the caller
// delivers slot head once it is done, so output order equals input order.
// While the head is not done the caller claims and decodes chunks itself:
// n threads of decoding are n - 1 workers plus the caller, which on 2 cores
// took `cat` from ~1,760 context switches per GiB to ~30.
#include "reader/chunk_pipeline.h"

#include <algorithm>
#include <system_error>

#include "reader/thread_limit.h"

namespace squashlab {

ChunkPipeline::ChunkPipeline(const DataReader* data, int threads)
    : data_(data) {
  // n - 1 worker stacks must fit an address-space limit (thread_limit.h).
  const int n = 1 + WorkersTheLimitAllows(threads < 1 ? 0 : threads - 1);
  for (int i = 0; i < n; ++i) {
    auto ctx = data_->NewContext();
    if (!ctx.ok()) {
      init_status_ = ctx.status();
      return;
    }
    contexts_.push_back(std::move(ctx).value());
  }
  // Four chunks in flight per worker absorb uneven block costs (a stored
  // block next to a hard one) while the caller writes; the cap bounds memory
  // at 32 blocks whatever -p says.
  window_ = n <= 1 ? 1 : static_cast<size_t>(std::min(4 * n + 4, 32));
  slots_ = std::make_unique<Slot[]>(window_);
  for (size_t i = 0; i < window_; ++i)
    slots_[i].buf.resize(data_->block_size());
  if (n <= 1) return;
  // The caller decodes too while it waits (Run), so n - 1 threads make n.
  // A thread the system refuses leaves the work to those it granted.
  for (int i = 0; i + 1 < n; ++i) {
    try {
      workers_.emplace_back(
          [this, ctx = contexts_[i].get()] { WorkerLoop(ctx); });
    } catch (const std::system_error&) {
      break;
    }
  }
}

ChunkPipeline::~ChunkPipeline() {
  stop_.store(true);
  tail_.fetch_add(1);  // wakes every waiting worker; they see stop_ first
  tail_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void ChunkPipeline::Decode(uint64_t seq, DataReader::Context* ctx) {
  Slot& s = slot(seq);
  s.status = data_->ReadChunk(*s.job.layout, s.job.chunk, ctx, s.buf.data());
  if (s.status.ok() && *worker_sink_) {
    s.status = (*worker_sink_)(
        s.job, ByteSpan(s.buf.data(), s.job.layout->chunk_length(s.job.chunk)));
  }
  s.done.store(1);
  s.done.notify_one();
}

bool ChunkPipeline::TryClaim(uint64_t tail, uint64_t* seq) {
  uint64_t c = claim_.load();
  while (c < tail) {
    if (claim_.compare_exchange_weak(c, c + 1)) {
      *seq = c;
      return true;
    }
  }
  return false;
}

void ChunkPipeline::WorkerLoop(DataReader::Context* ctx) {
  for (;;) {
    const uint64_t tail = tail_.load();
    if (stop_.load()) return;
    uint64_t seq;
    if (TryClaim(tail, &seq)) {
      Decode(seq, ctx);
    } else {
      tail_.wait(tail);
    }
  }
}

Status ChunkPipeline::RunInline(const Source& next, const Sink& sink) {
  Slot& s = slots_[0];
  while (next(&s.job)) {
    SQL_RETURN_IF_ERROR(data_->ReadChunk(*s.job.layout, s.job.chunk,
                                         contexts_[0].get(), s.buf.data()));
    const ByteSpan bytes(s.buf.data(), s.job.layout->chunk_length(s.job.chunk));
    if (*worker_sink_) SQL_RETURN_IF_ERROR((*worker_sink_)(s.job, bytes));
    SQL_RETURN_IF_ERROR(sink(s.job, bytes));
  }
  return Status::Ok();
}

void ChunkPipeline::Drain(uint64_t head, uint64_t tail) {
  // Take every unclaimed sequence number so that no worker starts one.
  uint64_t first_unclaimed = claim_.load();
  while (first_unclaimed < tail &&
         !claim_.compare_exchange_weak(first_unclaimed, tail)) {
  }
  for (uint64_t seq = head; seq < tail; ++seq) {
    Slot& s = slot(seq);
    if (seq < first_unclaimed) {
      while (s.done.load() == 0) s.done.wait(0);
    }
    s.done.store(0);
    s.job.layout.reset();
  }
}

Status ChunkPipeline::Run(const Source& next, const Sink& sink,
                          const Sink& worker_sink) {
  SQL_RETURN_IF_ERROR(init_status_);
  // Published to the workers by the first tail_ store below.
  worker_sink_ = &worker_sink;
  if (workers_.empty()) return RunInline(next, sink);
  uint64_t head = tail_.load(), tail = head;
  bool exhausted = false;
  for (;;) {
    while (!exhausted && tail - head < window_) {
      // Slot tail is free and no worker can claim it until tail_ moves.
      if (!next(&slot(tail).job)) {
        exhausted = true;
        break;
      }
      tail_.store(++tail);
      tail_.notify_one();
    }
    if (head == tail) return Status::Ok();
    Slot& s = slot(head);
    // Rather than sleep on the oldest chunk, decode the next unclaimed one.
    uint64_t seq;
    while (s.done.load() == 0) {
      if (TryClaim(tail, &seq)) {
        Decode(seq, contexts_.back().get());
      } else {
        s.done.wait(0);
      }
    }
    s.done.store(0);
    Status st = s.status;
    if (st.ok())
      st = sink(s.job, ByteSpan(s.buf.data(),
                                s.job.layout->chunk_length(s.job.chunk)));
    s.job.layout.reset();
    ++head;
    if (!st.ok()) {
      Drain(head, tail);
      return st;
    }
  }
}

}  // namespace squashlab
