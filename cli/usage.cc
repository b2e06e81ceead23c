// This file implements the usage text of the `squashlab` command line.
#include <cstdio>

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
               "  verify [--variant V]... ...   explore read-path variants (squashlab verify -h)\n"
               "  repro TOKEN                   replay one failure exactly\n"
               "  bench SCENARIO [--profile P] [--variant V]... [--decomp D]...\n"
               "        [--json F] [--csv F] [--plot F.png]\n"
               "                                replay a seed experiment in simulate mode\n"
               "                                (phillip, emmc, usb, rt-latency, blocksize)\n"
               "exit codes: 0 ok, 1 path not in image, 2 usage, 3 corrupt or unsupported\n"
               "image, 4 host I/O error\n");
  return kExitUsage;
}

}  // namespace squashlab::cli
