// SPDX-License-Identifier: GPL-2.0-only
// This file implements ChunkPipeline: decoding file chunks on worker threads
// with bounded read-ahead, delivering them in order on the calling thread.
// It is how `cat` and `extract` use every core with bounded memory.
#ifndef SQUASHLAB_READER_CHUNK_PIPELINE_H_
#define SQUASHLAB_READER_CHUNK_PIPELINE_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "reader/data_reader.h"

namespace squashlab {

struct ChunkJob {
  std::shared_ptr<const FileLayout> layout;
  uint64_t chunk = 0;
  uint64_t tag = 0;  // the caller's, e.g. which output file
};

// Thread-compatible: one Run at a time. Memory: (window) x block size.
class ChunkPipeline {
 public:
  // `threads` decode: threads - 1 workers plus the caller of Run, which
  // decodes whenever the next chunk to deliver is not ready. threads <= 1
  // decodes inline on the caller's thread.
  ChunkPipeline(const DataReader* data, int threads);
  ~ChunkPipeline();
  ChunkPipeline(const ChunkPipeline&) = delete;
  ChunkPipeline& operator=(const ChunkPipeline&) = delete;

  // Fills *job and returns true, or returns false when there are no more.
  using Source = std::function<bool(ChunkJob* job)>;
  // Receives each chunk's bytes in source order.
  using Sink = std::function<Status(const ChunkJob& job, ByteSpan bytes)>;
  // Runs until the source is exhausted or the first decode or sink error.
  // `worker_sink`, when given, also receives each chunk, on the thread that
  // decoded it (a worker or the caller), before `sink` does: in any order
  // and concurrently with other calls (e.g. positional writes), so it must
  // be thread-safe.
  Status Run(const Source& next, const Sink& sink,
             const Sink& worker_sink = nullptr);

 private:
  struct Slot {
    ChunkJob job;
    std::vector<uint8_t> buf;
    Status status;
    std::atomic<uint32_t> done{0};  // set by the worker, cleared by the caller
  };
  Slot& slot(uint64_t seq) { return slots_[seq % window_]; }
  Status RunInline(const Source& next, const Sink& sink);
  void WorkerLoop(DataReader::Context* ctx);
  // Claims the oldest unclaimed sequence number below `tail`, if any.
  bool TryClaim(uint64_t tail, uint64_t* seq);
  // Decodes slot `seq` (and hands it to the worker sink), then marks it done.
  void Decode(uint64_t seq, DataReader::Context* ctx);
  // After an error: withdraws unclaimed slots and waits for claimed ones.
  void Drain(uint64_t head, uint64_t tail);

  const DataReader* data_;
  std::vector<std::unique_ptr<DataReader::Context>> contexts_;
  size_t window_ = 1;
  std::unique_ptr<Slot[]> slots_;
  std::vector<std::thread> workers_;
  // Sequence numbers grow across runs. Workers claim `claim_` while it is
  // below `tail_`; C++20 atomic waits make a hand-off a system call only
  // when the other side is actually asleep.
  std::atomic<uint64_t> claim_{0};
  std::atomic<uint64_t> tail_{0};
  std::atomic<bool> stop_{false};
  const Sink* worker_sink_ = nullptr;  // the current Run's, read by workers
  Status init_status_;
};

}  // namespace squashlab

#endif  // SQUASHLAB_READER_CHUNK_PIPELINE_H_
