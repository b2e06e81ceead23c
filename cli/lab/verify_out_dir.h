// SPDX-License-Identifier: GPL-2.0-only
// This file declares `squashlab verify --out DIR`: per failure class of each
// cell, three files named VARIANT.DECOMP.N-KIND: the report with its tokens
// (.report.txt), the minimised ftrace listing (.ftrace.txt) and the
// minimised schedule as a Chrome trace JSON for Perfetto (.trace.json).
#ifndef SQUASHLAB_CLI_LAB_VERIFY_OUT_DIR_H_
#define SQUASHLAB_CLI_LAB_VERIFY_OUT_DIR_H_

#include <string>

#include "reader/status.h"

namespace squashlab {
struct VerifyResult;
}

namespace squashlab::cli {

// Creates `dir` if needed (not its parents) and writes the files.
Status WriteVerifyOutDir(const std::string& dir, const VerifyResult& r);

}  // namespace squashlab::cli

#endif  // SQUASHLAB_CLI_LAB_VERIFY_OUT_DIR_H_
