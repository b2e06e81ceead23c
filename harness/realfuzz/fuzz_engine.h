// SPDX-License-Identifier: GPL-2.0-only
// This file implements the in-process fuzzing of real kernel code with
// malformed images ("syzbot in a process"): a corpus of seed images, each
// input a seed mutated by ImageMutator, walked by the code (walk.h) on
// the model kernel under its checkers; every report is a finding, kept
// once per title (as syzbot files one bug per title), with the image that
// showed it, that image minimised (bytes put back to the seed's while the
// same title still shows), the call trace of the report, and the
// functions of the code under test the campaign reached.
#ifndef SQUASHLAB_HARNESS_REALFUZZ_FUZZ_ENGINE_H_
#define SQUASHLAB_HARNESS_REALFUZZ_FUZZ_ENGINE_H_

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "harness/realfuzz/seed_image.h"
#include "harness/realfuzz/walk.h"
#include "model/base/report.h"

namespace squashlab {

struct FuzzOptions {
  WalkTarget target;
  WalkLimits limits;
  std::vector<SeedImage> seeds;
  double seconds = 60;  // 0: no time limit
  long max_execs = 0;   // 0: no limit
  uint64_t seed = 1;    // the mutator's
  bool stop_at_first = false;
  long minimise_budget = 400;  // walks to minimise each finding
  // Where the input goes if the process aborts under it ("": nowhere).
  std::string crash_path = "squashlab-fuzz-crash.sqfs";
};

struct FuzzFinding {
  Report report;          // the first of its title
  std::string seed_name;  // the seed it was mutated from
  std::vector<std::string> mutations;
  std::vector<uint8_t> image;      // as found
  std::vector<uint8_t> minimised;  // the fewest bytes changed from the seed
  long bytes_changed = 0;          // in `minimised`, against the seed
  long exec = 0;                   // executions up to and including it
  double seconds = 0;
  long count = 0;  // executions that reported this title
};

struct FuzzResult {
  long execs = 0;
  double seconds = 0;
  std::vector<FuzzFinding> findings;
  std::vector<std::string> functions;  // reached, "file.c function"
};

// One walk of `image`: its reports (empty: clean) and whether the mount
// was refused (the walk stopped there).
struct WalkOutcome {
  std::vector<Report> reports;
  bool completed = false;
  long steps = 0;
};
WalkOutcome RunWalk(const WalkTarget& target, const WalkLimits& limits,
                    const std::vector<uint8_t>& image);

// Runs the campaign; a progress line every few seconds to `log` if set.
FuzzResult RunFuzz(const FuzzOptions& opt, std::ostream* log);

// The image with as many bytes as possible put back to `seed`'s (and cut
// to the seed's length) while a walk still reports `want`'s title.
std::vector<uint8_t> MinimiseImage(const WalkTarget& target,
                                   const WalkLimits& limits,
                                   const std::vector<uint8_t>& image,
                                   const std::vector<uint8_t>& seed,
                                   const Report& want, long budget);

}  // namespace squashlab

#endif  // SQUASHLAB_HARNESS_REALFUZZ_FUZZ_ENGINE_H_
