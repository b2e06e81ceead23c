// SPDX-License-Identifier: GPL-2.0-only
// This file implements the squashlab verify job: for each read-path variant
// x decompressor strategy, explore the scenarios' schedules (pct, random or
// exhaustive) until a budget of runs or time, stop a cell at its first
// violation, minimise it, and report a verdict table with the kernel-style
// report, the minimised schedule and the replay token of each failure; and
// the replay of one token (squashlab repro).
#ifndef SQUASHLAB_HARNESS_VERIFY_VERIFY_H_
#define SQUASHLAB_HARNESS_VERIFY_VERIFY_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "harness/root_cause.h"
#include "harness/scenario_spec.h"
#include "harness/verify/verify_images.h"
#include "model/sched/explorer.h"

namespace squashlab {

struct VerifyOptions {
  std::vector<std::string> variants;   // empty: every variant
  std::vector<std::string> decomps;    // empty: every strategy
  std::vector<std::string> workloads;  // empty: DefaultWorkloads()
  // The images explored (harness/verify/verify_images.h): --image files and
  // directories, --shape names, --file paths; none: the embedded image.
  // A cell's budget is shared by all of them.
  ImageChoice images;
  std::string strategy = "pct";  // pct | random | exhaustive
  int pct_depth = 3;
  int preemption_bound = 2;  // exhaustive
  bool por = true;           // exhaustive: partial-order reduction
  bool iterative = true;     // exhaustive: bound 0, then 1, ... up to the bound
  long budget = 0;           // runs per cell; 0: until the time
  double seconds = 40;       // the whole job's time (when budget 0)
  std::string
      faults;  // "", eio, reada, bitflip, an allocation plan (failslab,
               // fail_page_alloc, fail-nth[=N]), or a FaultPlan on a device
  // Error paths too: each cell also explores these workloads under the
  // RAM disk's `eio` plan on the debug kernel, after its other scenarios
  // (verify --source sets it when no --faults or --device is given).
  std::vector<std::string> eio_workloads;
  std::string device;  // "": RAM disk; else an hw_emul profile[,bs=N]
  // And a second device: each cell also explores these workloads on
  // `second_device` on the debug kernel (verify --source sets a device of
  // 4096-byte logical blocks, where 6.x's sb_min_blocksize makes the
  // device block a page, when no --faults or --device is given).
  std::string second_device;
  std::vector<std::string> second_device_workloads;
  // "debug" (KASAN, poisoning, DEBUG_VM) and/or "prod" (a production slab:
  // freed objects reused, the consequences play out). Empty: debug, or
  // both with all_classes.
  std::vector<std::string> kernels;
  uint64_t seed = 1;
  bool minimise = true;
  long minimise_budget = 2000;
  // Keep exploring after a violation and collect the first failure of
  // every report class (each minimised), instead of stopping at the first.
  // A class is a report's kind and title ("BUG: unable to handle kernel
  // NULL pointer dereference in zlib_uncompress"); every report of a run
  // counts, warnings included, not only its first.
  bool all_classes = false;
  // Lint findings (checks with no kernel counterpart, titled "lint: ...")
  // count as classes too; off, they are never reported.
  bool lint = false;
  // "kcsan": the data-race detector too (a KCSAN build of the --source
  // tree, KernelConfig::kcsan); with `watchpoints`, a plain access to an
  // object another task touched is a scheduling point.
  std::string detector;
  bool watchpoints = false;
};

// The first failure of one report class (kind and title) in a cell;
// failure.report and minimised.report are that class's report.
struct ClassFinding {
  std::string scenario;
  long first_run = -1;  // schedules explored up to and including it
  double seconds = 0;
  RunResult failure;
  RunResult minimised;
  RootCause root;  // harness/root_cause.h
};

struct CellResult {
  std::string variant, decomp;
  long runs = 0;
  long distinct = 0;       // distinct schedules (choice sequences)
  long pruned = 0;         // of the runs, abandoned by partial-order reduction
  bool exhausted = false;  // exhaustive walked its whole space
  bool found = false;
  long first_failing_run = -1;  // runs before detection
  double seconds = 0;
  double seconds_to_first = 0;
  std::string scenario;               // of the failure
  RunResult failure;                  // as found
  RunResult minimised;                // with its trace
  std::vector<ClassFinding> classes;  // with VerifyOptions::all_classes
};

struct VerifyResult {
  std::vector<CellResult> cells;
  double seconds = 0;
};

// The cells the options name (every variant and strategy when none is
// named), each with its scenarios (workloads x kernels), after checking
// the options.
struct CellScenarios {
  std::string variant, decomp;
  std::vector<Scenario> scenarios;
};
StatusOr<std::vector<CellScenarios>> MakeCells(const VerifyOptions& opt);
// What `verify --source` adds to a job that names no device or plan: a
// device of 4096-byte logical blocks (a 4Kn NVMe drive, a loop device with
// --sector-size 4096) as opt's second device. There a tree's
// sb_min_blocksize gives a page-sized device block, and 6.12's
// squashfs_fill_super gives the mount its cache of partly read compressed
// blocks (cache_mapping), a read path the RAM disk's 512-byte sectors never
// take. Its workloads: opt's when `named_workloads`, else two that read
// consecutive blocks (dd2, every).
void AddPageSizedBlockDevice(VerifyOptions& opt, bool named_workloads);
// The workloads and kernels a cell's scenarios are made for.
std::vector<std::string> WorkloadsOf(const VerifyOptions& opt);
std::vector<std::string> KernelsOf(const VerifyOptions& opt);

// Validates the options; runs the job (progress lines to `log` if set).
StatusOr<VerifyResult> RunVerify(const VerifyOptions& opt, std::ostream* log);
std::string FormatTable(const VerifyResult& r);
// Each failure: report, scenario, token, minimised schedule.
std::string FormatFailures(const VerifyResult& r);

// Explores one scenario (a cell's inner loop), shared with the tests.
// `opt.faults` and `opt.device` must be those the scenarios were made with
// (the exhaustive reduction depends on them).
// `progress`: if set, a line every 30 s of a long cell (runs so far, pruned,
// the exhaustive search's current bound).
CellResult ExploreScenarios(const std::vector<Scenario>& scenarios,
                            const VerifyOptions& opt, double seconds,
                            std::ostream* progress = nullptr);

// The run's schedule up to the report it stands for (a run goes on after a
// warning), as an ftrace-like listing.
std::string FtraceUpToReport(const RunResult& r, const std::string& header);

// Writes the run's schedule as Chrome trace JSON (it opens in Perfetto),
// its report marked; false when the file cannot be written.
bool WriteRunTrace(const std::string& path, const RunResult& r);

// Replays a token over the image its scenario names among `images` (the
// embedded image when none is given; a shape's, generated, by its label).
StatusOr<RunResult> Repro(const std::string& token, const ImageChoice& images,
                          bool trace);

}  // namespace squashlab

#endif  // SQUASHLAB_HARNESS_VERIFY_VERIFY_H_
