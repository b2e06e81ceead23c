// This file declares the subcommands of the `squashlab` command line. Each
// takes the arguments after its name and returns the process exit code.
#ifndef SQUASHLAB_CLI_COMMANDS_H_
#define SQUASHLAB_CLI_COMMANDS_H_

#include <string>
#include <vector>

namespace squashlab::cli {

using Args = std::vector<std::string>;

int RunInfo(const Args& args);
int RunLs(const Args& args);
int RunCat(const Args& args);
int RunExtract(const Args& args);

// Prints the usage text to stderr and returns kExitUsage.
int Usage(const std::string& problem);

}  // namespace squashlab::cli

#endif  // SQUASHLAB_CLI_COMMANDS_H_
