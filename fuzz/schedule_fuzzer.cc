// SPDX-License-Identifier: GPL-2.0-only
// This file implements the schedule fuzzer: the input's bytes choose a
// read-path variant, decompressor strategy, workload, fault plan and seed,
// and then drive every scheduling choice of one explore run of that verify
// scenario (see schedule_case.h). Any report of the model's generic checker
// is a finding: the target prints it with its replay token and aborts.
//
// Built two ways from this source:
// - schedule_fuzzer: the variants believed correct (all but async-2013);
//   a report is a bug in the model or a variant. For continuous fuzzing.
// - schedule_async2013_fuzzer (SQUASHLAB_SCHEDULE_BUGGY): only async-2013,
//   whose bugs the fuzzer must find quickly — the detection benchmark.
//   With SQUASHLAB_SCHEDULE_CLASS=<report kind name> (e.g. use-after-free)
//   only that class counts, to time each class on its own.
// SQUASHLAB_SCHEDULE_VERBOSE=1 prints one line per input (scenario, steps,
// preemptions, choice points, outcome).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fuzz/fuzz_input.h"
#include "fuzz/schedule_case.h"

namespace {

using squashlab::ReportKindName;

const std::vector<std::string>& FuzzedVariants() {
#ifdef SQUASHLAB_SCHEDULE_BUGGY
  static const std::vector<std::string> variants = {
      squashlab::fuzz::kKnownBuggyVariant};
#else
  static const std::vector<std::string> variants =
      squashlab::fuzz::CorrectVariants();
#endif
  return variants;
}

// The report that makes this run a finding, or nullptr. A run goes on after
// warnings, so the class wanted may follow other reports.
const squashlab::Report* Finding(const squashlab::RunResult& r) {
#ifdef SQUASHLAB_SCHEDULE_BUGGY
  static const char* want = std::getenv("SQUASHLAB_SCHEDULE_CLASS");
  if (want == nullptr || *want == '\0') return &r.report;
  for (const squashlab::Report& x : r.reports)
    if (std::string(ReportKindName(x.kind)) == want) return &x;
  return nullptr;
#else
  return &r.report;  // every report in a correct variant is a finding
#endif
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace squashlab::fuzz;
  static const bool verbose =
      std::getenv("SQUASHLAB_SCHEDULE_VERBOSE") != nullptr;
  ScheduleRun run =
      RunScheduleCase(DecodeScheduleCase(data, size, FuzzedVariants()));
  if (verbose) {
    std::fprintf(stderr,
                 "%s seed %lu: %ld steps, %d preemptions, %zu choice points, "
                 "%zu of %zu bytes, %s\n",
                 run.scenario.c_str(),
                 static_cast<unsigned long>(run.result.seed), run.result.steps,
                 run.result.preemptions, run.result.choices.size(),
                 run.consumed,
                 size > kScheduleHeaderSize ? size - kScheduleHeaderSize : 0,
                 ReportKindName(run.result.report.kind));
  }
  if (!run.result.failed()) {
    FUZZ_CHECK(run.result.completed);
    return 0;
  }
  const squashlab::Report* finding = Finding(run.result);
  if (finding == nullptr) return 0;
  std::fprintf(stderr, "==schedule_fuzzer== finding in %s\n%s",
               run.scenario.c_str(),
               FormatScheduleFinding(run, finding).c_str());
  std::abort();
}
