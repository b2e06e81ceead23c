// This file implements the `squashlab` command line: it dispatches to the
// subcommands in cmd_*.cc.
#include "cli/cli_status.h"
#include "cli/commands.h"

namespace squashlab::cli {
int RunVerifyCommand(const Args& args);  // cmd_verify.cc
int RunReproCommand(const Args& args);   // cmd_repro.cc
int RunBenchCommand(const Args& args);   // cmd_bench.cc
}  // namespace squashlab::cli

int main(int argc, char** argv) {
  using namespace squashlab::cli;
  if (argc < 2) return Usage("");
  const std::string cmd = argv[1];
  Args args(argv + 2, argv + argc);
  if (cmd == "info") return RunInfo(args);
  if (cmd == "ls") return RunLs(args);
  if (cmd == "cat") return RunCat(args);
  if (cmd == "extract") return RunExtract(args);
  if (cmd == "verify") return RunVerifyCommand(args);
  if (cmd == "repro") return RunReproCommand(args);
  if (cmd == "bench") return RunBenchCommand(args);
  if (cmd == "-h" || cmd == "--help" || cmd == "help") {
    Usage("");
    return kExitOk;
  }
  return Usage("unknown command '" + cmd + "'");
}
