// SPDX-License-Identifier: GPL-2.0-only
// This file declares the entry point of the `squashlab` command line: parse
// the arguments against a set of commands and run the one selected.
#ifndef SQUASHLAB_CLI_COMMAND_LINE_H_
#define SQUASHLAB_CLI_COMMAND_LINE_H_

#include <vector>

#include "cli/commands.h"

namespace squashlab::cli {

using AddCommandFn = void (*)(CLI::App* root, CommandRunner* run);

// `args` are the arguments after the program's name. Help and --version go
// to stdout (exit 0); a usage mistake is one line and where the help is, on
// stderr (exit kExitUsage); otherwise the selected command's exit code.
int RunCommandLine(const Args& args, const std::vector<AddCommandFn>& commands);

}  // namespace squashlab::cli

#endif  // SQUASHLAB_CLI_COMMAND_LINE_H_
