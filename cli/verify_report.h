// SPDX-License-Identifier: GPL-2.0-only
// This file declares the text verdict of `squashlab verify`: the distinct
// failure classes with their kernel-style reports, the table of cells with
// every class each found (kernel, schedules and seconds to the first, the
// replay token), and a one-line summary against the expectations.
#ifndef SQUASHLAB_CLI_VERIFY_REPORT_H_
#define SQUASHLAB_CLI_VERIFY_REPORT_H_

#include <string>
#include <vector>

#include "cli/verify_expectations.h"

namespace squashlab {
struct VerifyResult;
}

namespace squashlab::cli {

struct VerifyReportOptions {
  bool listings = false;  // each class's minimised ftrace listing
  std::string json;       // where the JSON went ("" if nowhere)
  std::string out_dir;    // where the per-class files went
};

// Everything but the summary: the classes, where the details are, the table.
std::string FormatVerifyReport(const VerifyResult& r,
                               const VerifyReportOptions& opt);

// The unmet expectations, one a line, then one summary line.
std::string FormatVerifySummary(const VerifyResult& r,
                                const Expectations& expected,
                                const std::vector<std::string>& unmet);

}  // namespace squashlab::cli

#endif  // SQUASHLAB_CLI_VERIFY_REPORT_H_
