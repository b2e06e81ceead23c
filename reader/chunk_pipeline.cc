// This file implements ChunkPipeline. Slots form a ring of `window` entries;
// the caller fills slot tail, workers claim slots in order, and the caller
// delivers slot head once it is done, so output order equals input order.
#include "reader/chunk_pipeline.h"

#include <algorithm>

namespace squashlab {

ChunkPipeline::ChunkPipeline(const DataReader* data, int threads) : data_(data) {
  const int n = threads < 1 ? 1 : threads;
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
  slots_.resize(n <= 1 ? 1 : std::min(4 * n + 4, 32));
  for (Slot& s : slots_) s.buf.resize(data_->block_size());
  if (n <= 1) return;
  for (int i = 0; i < n; ++i) {
    workers_.emplace_back([this, ctx = contexts_[i].get()] { WorkerLoop(ctx); });
  }
}

ChunkPipeline::~ChunkPipeline() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  work_cv_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void ChunkPipeline::WorkerLoop(DataReader::Context* ctx) {
  for (;;) {
    uint64_t seq;
    {
      std::unique_lock<std::mutex> lock(mu_);
      work_cv_.wait(lock, [&] { return stop_ || claim_ < tail_; });
      if (stop_) return;
      seq = claim_++;
    }
    Slot& s = slots_[seq % slots_.size()];
    Status st = data_->ReadChunk(*s.job.layout, s.job.chunk, ctx, s.buf.data());
    {
      std::lock_guard<std::mutex> lock(mu_);
      s.status = std::move(st);
      s.done = true;
    }
    done_cv_.notify_all();
  }
}

Status ChunkPipeline::RunInline(const Source& next, const Sink& sink) {
  Slot& s = slots_[0];
  while (next(&s.job)) {
    SQL_RETURN_IF_ERROR(data_->ReadChunk(*s.job.layout, s.job.chunk, contexts_[0].get(),
                                         s.buf.data()));
    SQL_RETURN_IF_ERROR(sink(s.job, ByteSpan(s.buf.data(), s.job.layout->chunk_length(s.job.chunk))));
  }
  return Status::Ok();
}

void ChunkPipeline::Drain(uint64_t head) {
  std::unique_lock<std::mutex> lock(mu_);
  tail_ = claim_;  // nobody will claim the rest
  for (uint64_t seq = head; seq < tail_; ++seq) {
    Slot& s = slots_[seq % slots_.size()];
    done_cv_.wait(lock, [&] { return s.done; });
    s.done = false;
    s.job.layout.reset();
  }
}

Status ChunkPipeline::Run(const Source& next, const Sink& sink) {
  SQL_RETURN_IF_ERROR(init_status_);
  if (workers_.empty()) return RunInline(next, sink);
  {
    std::lock_guard<std::mutex> lock(mu_);
    claim_ = tail_ = 0;
  }
  const uint64_t window = slots_.size();
  uint64_t head = 0, tail = 0;
  bool exhausted = false;
  for (;;) {
    while (!exhausted && tail - head < window) {
      // Slot tail is free and no worker can claim it until tail_ moves.
      if (!next(&slots_[tail % window].job)) {
        exhausted = true;
        break;
      }
      {
        std::lock_guard<std::mutex> lock(mu_);
        tail_ = ++tail;
      }
      work_cv_.notify_one();
    }
    if (head == tail) return Status::Ok();
    Slot& s = slots_[head % window];
    {
      std::unique_lock<std::mutex> lock(mu_);
      done_cv_.wait(lock, [&] { return s.done; });
      s.done = false;
    }
    Status st = s.status;
    if (st.ok()) st = sink(s.job, ByteSpan(s.buf.data(), s.job.layout->chunk_length(s.job.chunk)));
    s.job.layout.reset();
    ++head;
    if (!st.ok()) {
      Drain(head);
      return st;
    }
  }
}

}  // namespace squashlab
