// SPDX-License-Identifier: GPL-2.0-only
// This file declares the subcommands of the `squashlab` command line. Each
// Add*Command registers its name, help text and options on the root CLI11
// app (the one source of usage text) and, when the command line selects
// it, sets *run to the function that does the work and returns the exit
// code.
#ifndef SQUASHLAB_CLI_COMMANDS_H_
#define SQUASHLAB_CLI_COMMANDS_H_

#include <functional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace squashlab::cli {

using Args = std::vector<std::string>;
using CommandRunner = std::function<int()>;

void AddInfoCommand(CLI::App* root, CommandRunner* run);
void AddLsCommand(CLI::App* root, CommandRunner* run);
void AddCatCommand(CLI::App* root, CommandRunner* run);
void AddExtractCommand(CLI::App* root, CommandRunner* run);
void AddVerifyCommand(CLI::App* root, CommandRunner* run);
void AddReproCommand(CLI::App* root, CommandRunner* run);
void AddBenchCommand(CLI::App* root, CommandRunner* run);
void AddCampaignCommand(CLI::App* root, CommandRunner* run);
void AddMergeCommand(CLI::App* root, CommandRunner* run);
void AddMkimageCommand(CLI::App* root, CommandRunner* run);
void AddFuzzCommand(CLI::App* root, CommandRunner* run);

// One image command alone, parsed as on the command line, with the
// arguments after its name (command_line.cc).
int RunInfo(const Args& args);
int RunLs(const Args& args);
int RunCat(const Args& args);

// `extract` takes its arguments in the order "[-p N] IMG DEST [PATH...]"
// (extract_command.cc rebuilds them from the parsed command line).
int RunExtract(const Args& args);

// For commands that check their own arguments: prints "squashlab: problem"
// and where the help is; returns kExitUsage.
int Usage(const std::string& problem);

}  // namespace squashlab::cli

#endif  // SQUASHLAB_CLI_COMMANDS_H_
