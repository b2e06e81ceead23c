// SPDX-License-Identifier: GPL-2.0-only
// This file implements the benchmark's calibration: what a CPU operation
// costs in the simulate executor for each device profile's machine. The
// per-byte decompression cost of each codec is measured on this machine
// with the real codecs (the reader's) over the benchmark's own content, and
// scaled by the profile CPU's slowdown; the slowdowns (and the KVM guest's
// workqueue hop) are fitted, by bisection over simulated runs, to figures
// visible in the seed threads (cited in docs/) only. The fitted numbers are
// committed (calibration.cc) so that a benchmark gives identical results run to
// run; `squashlab bench calibrate` measures and fits them again.
#ifndef SQUASHLAB_BENCH_SIM_CALIBRATION_H_
#define SQUASHLAB_BENCH_SIM_CALIBRATION_H_

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "bench/sim/bench_image.h"
#include "harness/scenario_builder.h"
#include "reader/status.h"

namespace squashlab {

// This machine's costs, measured.
struct HostCosts {
  // "codec/content" -> ns per output byte, e.g. "gzip/text22".
  std::map<std::string, double> codec_ns_per_byte;
  double memcpy_ns_per_byte = 0.1;
  std::string measured;  // when and where
};

// A device profile's machine.
struct CpuProfile {
  std::string profile;  // the profile's name (usually the hw_emul profile's)
  std::string device;   // the hw_emul profile it runs on; "": `profile`
  std::string cpu;
  int ncpus = 2;
  double slowdown = 1;  // CPU time there / CPU time here
  std::string slowdown_source;
  uint64_t work_dispatch_ns = 0;  // queue_work -> the work function running
  std::string dispatch_source;
  // What each read(2) of the benchmark's dd costs beyond the page-cache read
  // the model runs (the caller's side of the call: 0 unless a seed figure
  // shows one).
  uint64_t read_syscall_ns = 0;
  std::string syscall_source;
  // Where that time goes: false, dd sleeps (the device and the other CPUs
  // carry on with the read path's work); true, the device is busy with it
  // (BlockDevice::Occupy), so readahead I/O waits behind it.
  bool read_syscall_on_device = false;
  std::string syscall_place_source;
  const std::string& Device() const {
    return device.empty() ? profile : device;
  }
};

const HostCosts& CommittedHostCosts();
// The profiles' machines with the committed fits; nullptr when unknown.
const CpuProfile* FindCpuProfile(const std::string& profile);

// The cost model of `cpu` for `content` (the codec figure depends on it).
CostModel MakeCostModel(const CpuProfile& cpu, const HostCosts& host,
                        ContentKind content);

// Measures HostCosts on this machine (wall clock: not deterministic).
StatusOr<HostCosts> MeasureHostCosts(const std::string& cache_dir);

// Fits the slowdowns and the KVM hop against the seeds with `host`, and
// prints the derivation; returns the fitted profiles.
StatusOr<std::map<std::string, CpuProfile>> FitCpuProfiles(
    const HostCosts& host, const std::string& cache_dir, std::ostream& log);

// One number of a profile (its machine or its device): the mechanism it
// stands for, its value and where it comes from (a seed figure, a
// derivation, a datasheet, an assumption). A profile has each name once:
// nothing is calibrated per block size, per dd bs or per cell.
struct ProfileConstant {
  std::string profile;
  std::string name;  // one of MechanismConstantNames()
  double value = 0;
  std::string source;
};
// Every constant of every profile with a calibrated CPU (CPU + device).
std::vector<ProfileConstant> ProfileConstants();
// The mechanisms a constant may stand for (bench/sim/README.md).
const std::vector<std::string>& MechanismConstantNames();

// The seed figures the fits use (MB/s = 10^6 B/s).
inline constexpr double kSeedKvm1024SyncSingleMBps =
    98.33;  // mean, No Asyn Single
inline constexpr double kSeedKvm1024AsyncSingleMBps =
    89.96;  // mean, Asyn Single
inline constexpr double kSeedEmmcSyncMBps = 58707718 / 1.393653 / 1e6;  // 42.13
inline constexpr double kSeedEmmcAsyncMBps =
    58707718 / 0.942413 / 1e6;  // 62.29
inline constexpr uint64_t kSeedEmmcFileBytes = 58707718;
// Minchan's sweep on the Nexus 4 (MiB/s, "before" and "after" the patch).
struct SeedSweepPoint {
  uint64_t bs;
  double before, after;
};
inline constexpr SeedSweepPoint kSeedSweep[] = {
    {32 << 10, 3.6, 3.4},    {64 << 10, 6.3, 8.2},    {128 << 10, 11.4, 11.7},
    {160 << 10, 13.6, 13.8}, {256 << 10, 19.8, 19.0}, {288 << 10, 21.3, 20.8}};

}  // namespace squashlab

#endif  // SQUASHLAB_BENCH_SIM_CALIBRATION_H_
