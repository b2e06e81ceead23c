// SPDX-License-Identifier: GPL-2.0-only
// This file implements the benchmark scenarios of `squashlab bench`: each
// replays one seed experiment over images built by mksquashfs on an
// emulated device in simulate mode, and returns tables (the thread's
// layout), one record per cell with the counters that explain it, and
// notes (the seed figures beside the predictions). Deterministic: the same
// options give the same BenchResult, byte for byte in JSON.
//   phillip     the 2013 thread's 108-cell matrix (+ the other variants)
//   emmc        Chanho's dd bs=64k with mmcqd's fetch/idle
//   usb         Minchan's bs sweep, before/after
//   rt-latency  the 2018 RT thread's cyclictest, per decompressor strategy
//   blocksize   throughput vs block size, per compressor and variant
//   fidelity    every visible figure of the 2013 thread vs the simulation
#ifndef SQUASHLAB_BENCH_SIM_BENCH_H_
#define SQUASHLAB_BENCH_SIM_BENCH_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "reader/status.h"

namespace squashlab {

struct BenchOptions {
  std::string scenario;
  std::string profile;                // "": the scenario's own
  std::vector<std::string> variants;  // empty: the scenario's defaults
  std::vector<std::string> decomps;
  std::string cache_dir;   // images; "": DefaultCacheDir()
  uint64_t file_size = 0;  // 0: the scenario's default
  bool small = false;      // a reduced grid (tests)
  int jobs = 1;            // cells run on this many threads
};

// A JSON scalar: text, an integer or a real (printed with 4 decimals).
using BenchValue = std::variant<std::string, uint64_t, double>;
using BenchRecord = std::vector<std::pair<std::string, BenchValue>>;

struct BenchTable {
  std::string title;
  std::string corner;  // the row header's name
  std::vector<std::string> columns;
  std::vector<std::pair<std::string, std::vector<std::string>>> rows;
};

struct BenchResult {
  std::string scenario;
  std::string profile;
  std::vector<BenchRecord> setup;  // images, calibration in force
  std::vector<BenchTable> tables;
  std::vector<BenchRecord> records;  // one per cell
  std::vector<std::string> notes;    // seeds vs predictions, scaling
};

const std::vector<std::pair<std::string, std::string>>& BenchScenarios();

StatusOr<BenchResult> RunBench(const BenchOptions& opt, std::ostream* progress);

std::string FormatBenchText(const BenchResult& r);
std::string BenchToJson(const BenchResult& r);
std::string BenchToCsv(const BenchResult& r);

}  // namespace squashlab

#endif  // SQUASHLAB_BENCH_SIM_BENCH_H_
