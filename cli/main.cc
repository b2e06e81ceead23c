// SPDX-License-Identifier: GPL-2.0-only
// This file implements the `squashlab` program: every command, on one
// command line.
#include "cli/command_line.h"

int main(int argc, char** argv) {
  using namespace squashlab::cli;
  return RunCommandLine(
      Args(argv + 1, argv + argc),
      {AddInfoCommand, AddLsCommand, AddCatCommand, AddExtractCommand,
       AddVerifyCommand, AddCampaignCommand, AddMergeCommand, AddReproCommand,
       AddBenchCommand, AddMkimageCommand, AddFuzzCommand});
}
