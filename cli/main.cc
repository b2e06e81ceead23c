// This file implements the `squashlab` command line: it dispatches to the
// subcommands in cmd_*.cc.
#include <cstdio>
#include <cstring>

#include "cli/cli_status.h"
#include "cli/commands.h"

namespace squashlab::cli {

int Usage(const std::string& problem) {
  if (!problem.empty()) std::fprintf(stderr, "squashlab: %s\n", problem.c_str());
  std::fprintf(stderr,
               "usage: squashlab COMMAND ARGS\n"
               "  info IMG                      superblock, compressor, tables, counts\n"
               "  ls [-l] [-R] IMG [PATH]       list a directory (-R: the whole tree below)\n"
               "  cat [-p N] IMG PATH...        file contents to stdout\n"
               "  extract [-p N] IMG DEST [PATH...]\n"
               "                                extract the image (or PATHs) into DEST\n"
               "exit codes: 0 ok, 1 path not in image, 2 usage, 3 corrupt or unsupported\n"
               "image, 4 host I/O error\n");
  return kExitUsage;
}

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
  if (cmd == "-h" || cmd == "--help" || cmd == "help") {
    Usage("");
    return kExitOk;
  }
  return Usage("unknown command '" + cmd + "'");
}
