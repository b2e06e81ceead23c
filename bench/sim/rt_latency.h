// SPDX-License-Identifier: GPL-2.0-only
// This file implements the real-time latency experiment of the 2018 RT thread
// in simulate mode: readers decompress a real image's blocks on every CPU of an
// RT kernel, reading through an hw_emul device with a real part's profile
// (QSPI NOR flash by default), while a cyclictest-like task per CPU, at the
// highest priority, wakes every period (absolute timer) and records how
// late it ran. With the percpu strategy a block's whole decompression is
// non-preemptible; with the RT local lock none of it is: on PREEMPT_RT
// kmap_atomic only disables migration and the inflate can be preempted at
// any instruction (CostModel::preemptible_charge_slice_ns), so the waker
// waits only for a context switch.
//
// The decompression cost is not fitted to the seed: it is this machine's
// measured codec cost per output byte (docs/) times an assumed ratio
// between this core and the embedded one (RtLatencyOptions::cpu_ratio).
#ifndef SQUASHLAB_BENCH_SIM_RT_LATENCY_H_
#define SQUASHLAB_BENCH_SIM_RT_LATENCY_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "harness/image_model.h"
#include "harness/scenario_builder.h"

namespace squashlab {

struct SquashfsDecompressorOps;

// This machine's codec cost, ns per output byte of a 128K block from RAM
// (docs/ "Codec ceilings": zstd ~1,000 MB/s, gzip ~320, lz4 ~3,800,
// xz ~60); lzma as xz, lzo as lz4 (not measured).
double HostDecompressNsPerByte(const std::string& codec);

// Cortex-A9 at 1 GHz vs this machine for zlib: 320 MB/s / 77 MB/s, the A9's
// inflate rate derived from the 2013 thread's eMMC figures (hw_emul/README.md:
// 0.760 s of CPU for 460 blocks of 128K, 1.65 ms per block).
inline constexpr double kEmbeddedCpuRatio = 320.0 / 77.0;

struct RtLatencyOptions {
  std::string variant = "sync-3.13";
  std::string decomp = "percpu";
  // A hand-made strategy instead of `decomp` (tests of misuse).
  const SquashfsDecompressorOps* decomp_ops = nullptr;
  // hw_emul profile[,bs=N] the readers read from; "" = the model's RAM disk
  // with `ram_disk_latency_ns` per request.
  std::string device = "qspi-flash";
  uint64_t ram_disk_latency_ns = 200000;
  // ns per output byte on the embedded core; 0 = HostDecompressNsPerByte
  // of the image's codec x cpu_ratio.
  double decompress_ns_per_byte = 0;
  double cpu_ratio = kEmbeddedCpuRatio;
  uint64_t period_ns = 1000000;  // cyclictest -i 1000
  int ncpus = 2;
  uint64_t bucket_ns = 10000;  // histogram bucket width (cyclictest -h)
};

struct RtLatencyResult {
  uint64_t max_wakeup_latency_ns = 0;  // worst over the cyclictest tasks
  uint64_t wakeups = 0;
  uint64_t end_ns = 0;                // the readers' finish, virtual time
  double decompress_ns_per_byte = 0;  // the cost used
  std::string codec;
  // histogram[i]: wake-ups with latency in [i, i + 1) x bucket_ns, all
  // cyclictest tasks together; the last bucket holds the worst one.
  uint64_t bucket_ns = 0;
  std::vector<uint64_t> histogram;
  Report report;  // empty when the run was clean
};

RtLatencyResult RunRtLatency(std::shared_ptr<const ImageModel> image,
                             const RtLatencyOptions& opt);

}  // namespace squashlab

#endif  // SQUASHLAB_BENCH_SIM_RT_LATENCY_H_
