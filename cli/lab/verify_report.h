// SPDX-License-Identifier: GPL-2.0-only
// This file declares the text verdict of `squashlab verify`: the root
// causes of the failure classes found (cli/lab/verify_root_causes.h), each with
// its titles, the seed thread's reports it explains and a replay token; the
// table of cells with the root causes each found; and a one-line summary
// against the expectations. With all_classes, also every distinct class
// and, per cell, every class with its kernel, schedules and seconds to the
// first, and replay token.
#ifndef SQUASHLAB_CLI_LAB_VERIFY_REPORT_H_
#define SQUASHLAB_CLI_LAB_VERIFY_REPORT_H_

#include <string>
#include <vector>

#include "cli/lab/verify_expectations.h"

namespace squashlab {
struct VerifyResult;
}

namespace squashlab::cli {

struct VerifyReportOptions {
  bool listings = false;     // each class's minimised ftrace listing
  bool all_classes = false;  // every class and root cause, with tokens
  std::string json;          // where the JSON went ("" if nowhere)
  std::string out_dir;       // where the per-class files went
};

// Everything but the summary: the causes (and classes), where the details
// are, the table.
std::string FormatVerifyReport(const VerifyResult& r,
                               const VerifyReportOptions& opt);

// The unmet expectations, one a line, then one summary line.
std::string FormatVerifySummary(const VerifyResult& r,
                                const Expectations& expected,
                                const std::vector<std::string>& unmet);

}  // namespace squashlab::cli

#endif  // SQUASHLAB_CLI_LAB_VERIFY_REPORT_H_
