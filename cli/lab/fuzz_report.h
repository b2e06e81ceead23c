// SPDX-License-Identifier: GPL-2.0-only
// This file implements the output of `squashlab fuzz`: the findings table
// (one row per title, as syzbot files one bug per title), each finding's
// report with its call trace and replay command, the functions of the code
// under test the campaign reached, the minimised images in an --out
// directory, and the JSON (docs/schema/fuzz.schema.json).
#ifndef SQUASHLAB_CLI_LAB_FUZZ_REPORT_H_
#define SQUASHLAB_CLI_LAB_FUZZ_REPORT_H_

#include <string>
#include <vector>

#include "harness/realfuzz/fuzz_engine.h"
#include "reader/status.h"

namespace squashlab::cli {

struct FuzzRun {
  std::string target;      // "linux-6.12/single" or "DIR (linux-src/single)"
  std::string replay_arg;  // "--source DIR" or "--variant linux-6.12"
  std::string out_dir;     // where the minimised images went ("": none)
  std::vector<std::string> image_files;  // per finding, under out_dir
};

std::string FormatFuzzReport(const FuzzResult& r, const FuzzRun& run);
// Writes each finding's found and minimised image to `dir` (created);
// their paths, in finding order, go to run->image_files.
Status WriteFuzzImages(const std::string& dir, const FuzzResult& r,
                       FuzzRun* run);
Status WriteFuzzJson(const std::string& path, const FuzzResult& r,
                     const FuzzRun& run);

}  // namespace squashlab::cli

#endif  // SQUASHLAB_CLI_LAB_FUZZ_REPORT_H_
