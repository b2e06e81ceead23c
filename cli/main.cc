// This file implements the `squashlab` command line: it dispatches to the
// subcommands in cmd_*.cc.
#include "cli/cli_status.h"
#include "cli/commands.h"


int main(int argc, char** argv) {
  using namespace squashlab::cli;
  if (argc < 2) return Usage("");
  const std::string cmd = argv[1];
  Args args(argv + 2, argv + argc);
  if (cmd == "info") return RunInfo(args);
  if (cmd == "ls") return RunLs(args);
  if (cmd == "cat") return RunCat(args);
  if (cmd == "extract") return RunExtract(args);
  if (cmd == "-h" || cmd == "--help" || cmd == "help") {
    Usage("");
    return kExitOk;
  }
  return Usage("unknown command '" + cmd + "'");
}
