// SPDX-License-Identifier: GPL-2.0-only
// This file implements one benchmark cell: `dd if=/mnt/file of=/dev/null
// bs=N` over a SquashFS image on an hw_emul device, with one read-path
// variant and one decompressor strategy, in the simulate executor (virtual
// time on N CPUs, deterministic). It returns the dd rate and the counters
// that explain it: read-path calls and how many found I/O already in
// flight, decompressions, the readahead window, device requests, merges,
// host fetch/idle and busy time, and the workqueue's delay. The run is
// put together by the harness's scenario builder.
#ifndef SQUASHLAB_BENCH_SIM_DD_CELL_H_
#define SQUASHLAB_BENCH_SIM_DD_CELL_H_

#include <cstdint>
#include <memory>
#include <string>

#include "harness/scenario_builder.h"

namespace squashlab {

struct ImageModel;

struct CellSpec {
  std::string variant = "sync-3.13";
  std::string decomp = "single";
  std::string profile = "kvm-hdb";  // an hw_emul profile
  uint64_t dd_bs = 65536;
  int ncpus = 4;
  unsigned ra_pages = 32;  // 128K: the 3.13 default
  // Time each dd read(2) call costs outside the file's page-cache read
  // (CpuProfile::read_syscall_ns): dd waits that long before each call.
  uint64_t read_syscall_ns = 0;
  // That time holds the device (CpuProfile::read_syscall_on_device).
  bool read_syscall_on_device = false;
  // dd reads the file from its start; with measure_bytes > 0 it stops after
  // warmup_bytes + measure_bytes and the rate is that of the measured span
  // alone (the steady state of a long file); 0: the whole file is read and
  // measured. Both are multiples of dd_bs (SteadyStateSpan).
  uint64_t warmup_bytes = 0;
  uint64_t measure_bytes = 0;
};

// Sets `spec`'s warm-up and measured span for a file of `block_size` blocks:
// warm-up max(2 blocks, 2 dd calls, 512K) covers the readahead ramp (3.13's
// window reaches its steady size and pattern within two windows of 128K,
// or one block when a block is larger); the measured span max(4 blocks, 4
// dd calls, 2 MiB) then repeats the steady pattern. Both rounded up to whole
// dd calls. The thread's 3 GB file spends a negligible share of its time in
// the ramp: the measured span's rate is what its dd reported.
void SteadyStateSpan(CellSpec* spec, uint32_t block_size);

// The read path's and the strategy's calls (CallCounters: read-path calls,
// how many found I/O in flight, decompressions), then what explains them.
struct CellCounters : CallCounters {
  // The file's readahead (file_ra_state after each read).
  uint64_t ra_windows = 0;  // distinct (start, size) windows
  uint64_t ra_max_pages = 0;
  // The device (hw_emul DeviceCounters).
  uint64_t requests = 0;
  uint64_t merges = 0;
  uint64_t device_bytes = 0;
  uint64_t fetch = 0;
  uint64_t idle = 0;
  uint64_t busy_ns = 0;
  uint64_t device_idle_ns = 0;  // dd's time minus the device's busy time
  // The workqueue: items run, and queue_work -> worker running.
  uint64_t work_items = 0;
  uint64_t work_delay_total_ns = 0;
  uint64_t work_delay_max_ns = 0;
};

struct CellResult {
  std::string failure;  // "": ok; else "oops", "hang", "wrong data", "livelock"
  std::string report;   // the report's title line when it failed
  uint64_t file_bytes = 0;
  uint64_t measured_bytes = 0;  // what dd read in its measured span
  uint64_t dd_ns = 0;  // the measured span's first read to its last (virtual)
  double mbps = 0;     // measured bytes / dd time, in 10^6 B/s
  CellCounters c;
  // MB/s with two decimals, or the failure.
  std::string Cell() const;
};

// Runs one cell over the largest file of `image`; the counters cover the
// whole run (warm-up included). Deterministic: the same
// arguments give the same result, byte for byte.
CellResult RunDdCell(std::shared_ptr<const ImageModel> image,
                     const CellSpec& spec, const CostModel& cost);

}  // namespace squashlab

#endif  // SQUASHLAB_BENCH_SIM_DD_CELL_H_
