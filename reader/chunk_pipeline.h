// This file implements ChunkPipeline: decoding file chunks on worker threads
// with bounded read-ahead, delivering them in order on the calling thread.
// It is how `cat` and `extract` use every core with bounded memory.
#ifndef SQUASHLAB_READER_CHUNK_PIPELINE_H_
#define SQUASHLAB_READER_CHUNK_PIPELINE_H_

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
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
  // threads <= 1 decodes inline on the caller's thread.
  ChunkPipeline(const DataReader* data, int threads);
  ~ChunkPipeline();
  ChunkPipeline(const ChunkPipeline&) = delete;
  ChunkPipeline& operator=(const ChunkPipeline&) = delete;

  // Fills *job and returns true, or returns false when there are no more.
  using Source = std::function<bool(ChunkJob* job)>;
  // Receives each chunk's bytes in source order.
  using Sink = std::function<Status(const ChunkJob& job, ByteSpan bytes)>;
  // Runs until the source is exhausted or the first decode or sink error.
  Status Run(const Source& next, const Sink& sink);

 private:
  struct Slot {
    ChunkJob job;
    std::vector<uint8_t> buf;
    Status status;
    bool done = false;
  };
  Status RunInline(const Source& next, const Sink& sink);
  void WorkerLoop(DataReader::Context* ctx);
  // After an error: withdraws unclaimed slots and waits for claimed ones.
  void Drain(uint64_t head);

  const DataReader* data_;
  std::vector<std::unique_ptr<DataReader::Context>> contexts_;
  std::vector<Slot> slots_;
  std::vector<std::thread> workers_;
  std::mutex mu_;
  std::condition_variable work_cv_;
  std::condition_variable done_cv_;
  uint64_t claim_ = 0;  // next sequence number a worker takes
  uint64_t tail_ = 0;   // one past the last queued sequence number
  bool stop_ = false;
  Status init_status_;
};

}  // namespace squashlab

#endif  // SQUASHLAB_READER_CHUNK_PIPELINE_H_
