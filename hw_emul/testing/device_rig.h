// SPDX-License-Identifier: GPL-2.0-only
// This file implements the device tests' rig: an image of known bytes,
// I/O records that a bio's end_io fills (and counts, to check exactly-once
// completion), and helpers that run a body as the task "dd" under each
// executor.
#ifndef SQUASHLAB_HW_EMUL_TESTING_DEVICE_RIG_H_
#define SQUASHLAB_HW_EMUL_TESTING_DEVICE_RIG_H_

#include <atomic>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <vector>

#include "hw_emul/bio_flags.h"
#include "hw_emul/block_device.h"
#include "model/kernel/bio.h"
#include "model/kernel/blk_plug.h"
#include "model/kernel/completion.h"
#include "model/kernel/kernel.h"
#include "model/kernel/scenario.h"
#include "model/sched/explorer.h"
#include "model/sched/simulate_executor.h"
#include "model/sched/threads_executor.h"
#include "reader/image_bytes.h"

namespace squashlab::hwtest {

inline uint8_t PatternByte(uint64_t off) {
  return static_cast<uint8_t>((off * 131 + 7) ^ (off >> 9));
}

inline std::shared_ptr<const ImageBytes> PatternImage(uint64_t size) {
  std::vector<uint8_t> bytes(size);
  for (uint64_t i = 0; i < size; i++) bytes[i] = PatternByte(i);
  return ImageBytes::FromBuffer(std::move(bytes));
}

// One bio's fate, filled by EndIo.
struct Io {
  uint64_t sector = 0;
  unsigned bytes = 0;
  int rw = READ;
  std::vector<char> buf;
  std::atomic<int> completions{0};
  int error = 0;
  uint64_t done_ns = 0;
  bool in_irq = false;
  completion done;
};

inline void EndIo(bio* b, int error) {
  auto* io = static_cast<Io*>(b->bi_private);
  Kernel& k = Kernel::Current();
  io->error = error;
  io->done_ns = k.NowNs();
  io->in_irq = k.current_task() != nullptr && k.current_task()->in_interrupt();
  io->completions.fetch_add(1);
  bio_put(b);
  complete(&io->done);
}

// Ios live outside the run so the test can read them afterwards.
class Ios {
 public:
  Io* Make(uint64_t sector, unsigned bytes, int rw = READ) {
    all_.emplace_back();
    Io* io = &all_.back();
    io->sector = sector;
    io->bytes = bytes;
    io->rw = rw;
    io->buf.assign(bytes, 0);
    init_completion(&io->done);
    return io;
  }
  std::deque<Io>& all() { return all_; }

 private:
  std::deque<Io> all_;
};

// Submits `io` to `dev` from the current task.
inline void Submit(BlockDevice* dev, Io* io) {
  bio* b = bio_alloc(GFP_KERNEL, 1);
  b->bi_sector = io->sector;
  b->bi_bdev = dev->bdev();
  b->bi_io_vec.push_back(bio_vec{nullptr, io->buf.data(), io->bytes, 0});
  b->bi_size = io->bytes;
  b->bi_end_io = EndIo;
  b->bi_private = io;
  submit_bio(io->rw, b);
}

inline void Wait(Io* io) { wait_for_completion(&io->done); }

// True when io->buf holds the image's bytes.
inline bool DataMatches(const Io& io) {
  for (unsigned i = 0; i < io.bytes; i++)
    if (static_cast<uint8_t>(io.buf[i]) != PatternByte(io.sector * 512 + i))
      return false;
  return true;
}

inline Scenario DdScenario(std::function<void()> body, int ncpus = 2) {
  KernelConfig config;
  config.ncpus = ncpus;
  return Scenario{
      "hw_emul", config, [body](Kernel& k) {
        k.Spawn(TaskSpec{"dd", TaskContext::kProcess, -1, 0, 0, body});
      }};
}

inline ScenarioOutcome RunSimulate(const Scenario& sc, uint64_t seed = 1) {
  SimulateExecutor exec;
  return RunScenario(sc, exec, seed);
}

inline RunResult RunExplore(const Scenario& sc, uint64_t seed,
                            const char* strategy = "random") {
  Explorer explorer;
  ExploreOptions opt;
  opt.strategy = strategy;
  std::unique_ptr<Strategy> s = MakeStrategy(opt);
  return explorer.RunOnce(sc, *s, seed, false);
}

inline ScenarioOutcome RunThreads(const Scenario& sc, uint64_t seed = 1) {
  ThreadsOptions opt;
  opt.seed = seed;
  opt.delay_divisor = 1000;  // a 1 ms device latency sleeps 1 us
  opt.hang_ms = 2000;
  ThreadsExecutor exec(opt);
  return RunScenario(sc, exec, seed);
}

}  // namespace squashlab::hwtest

#endif  // SQUASHLAB_HW_EMUL_TESTING_DEVICE_RIG_H_
