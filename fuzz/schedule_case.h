// SPDX-License-Identifier: GPL-2.0-only
// This file implements ScheduleCase, the schedule fuzzer's reading of its
// input, and the one run it stands for. Layout (any byte string is valid;
// missing bytes read as zero):
//   byte 0   read-path variant, an index into the fuzzed variants
//   byte 1   decompressor strategy, an index into AllDecompressors()
//   byte 2   workload, an index into Workloads()
//   byte 3   fault plan: bits 0-1 none / eio / reada / bitflip; on an
//            hw_emul device bits 2-4 add late completions (delay),
//            reordered completions and short transfers to none, eio and
//            reada (DeviceFaults()); bit 7: a production kernel ("prod":
//            slab reuse, no KASAN/ODEBUG) instead of a debug one
//   byte 4   device: 0 the RAM disk, else an hw_emul profile with a
//            logical block size of 1024, 512 or 4096 (Devices())
//   5..8     the run's seed (little-endian; fault plans draw from it)
//   9..      one byte per choice point of the explore executor
//            (BytesStrategy: 0 keeps the current task, k preempts it for
//            the k-th enabled task after it; past the end: no preemption)
// The run is an ordinary explore run of the verify scenario
// "variant/decomp/workload[/faults[/device[/kernel]]]" over the embedded image,
// so a finding is also a replay token for `squashlab repro`.
#ifndef SQUASHLAB_FUZZ_SCHEDULE_CASE_H_
#define SQUASHLAB_FUZZ_SCHEDULE_CASE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "harness/explore_once.h"
#include "harness/scenario_spec.h"

namespace squashlab::fuzz {

inline constexpr size_t kScheduleHeaderSize = 9;
// The variant that carries the 2013 patch's bugs on purpose.
inline constexpr const char* kKnownBuggyVariant = "async-2013";

struct ScheduleCase {
  ScenarioSpec spec;
  uint64_t seed = 0;
  std::vector<uint8_t> choices;
};

// Every registered variant but kKnownBuggyVariant, in registry order.
std::vector<std::string> CorrectVariants();
// "" (the RAM disk), then every hw_emul profile x ",bs=512", "", ",bs=4096".
const std::vector<std::string>& Devices();
// The fault plan of byte 3 on `device`: a named plan ("", eio, reada,
// bitflip), or on a device with bits 2-4 set an hw_emul plan string.
std::string DeviceFaults(uint8_t b, const std::string& device);

// REQUIRES: `variants` is not empty.
ScheduleCase DecodeScheduleCase(const uint8_t* data, size_t size,
                                const std::vector<std::string>& variants);

struct ScheduleRun {
  std::string scenario;
  RunResult result;
  size_t consumed = 0;  // choice bytes the run used
};

// Runs the case once (explore executor, BytesStrategy). Aborts when the
// scenario cannot be built (a harness bug: every decoded spec is valid).
// Not thread-safe: one explore executor is reused across calls.
ScheduleRun RunScheduleCase(const ScheduleCase& c, bool trace = false);

// The finding as the fuzzer prints it: report, scenario, seed, replay token
// and the squashlab repro command line; `focus` (one of the run's reports)
// is the one printed, by default the first.
std::string FormatScheduleFinding(const ScheduleRun& run,
                                  const Report* focus = nullptr);

}  // namespace squashlab::fuzz

#endif  // SQUASHLAB_FUZZ_SCHEDULE_CASE_H_
