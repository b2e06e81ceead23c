// SPDX-License-Identifier: GPL-2.0-only
// This file implements the usage error of commands that check their own
// arguments after CLI11 has parsed them.
#include "cli/cli_status.h"
#include "cli/commands.h"

namespace squashlab::cli {

int Usage(const std::string& problem) { return UsageError("", problem); }

}  // namespace squashlab::cli
