// SPDX-License-Identifier: GPL-2.0-only
// This file registers `squashlab extract` on the command line: its help
// text and options, parsed by CLI11 and handed to RunExtract (cmd_extract.cc)
// in the argument order that function takes.
#include <CLI/CLI.hpp>
#include <memory>

#include "cli/commands.h"

namespace squashlab::cli {
namespace {

struct ExtractArgs {
  int threads = 0;  // 0: not given (two threads a core)
  bool overwrite = false;
  bool quiet = false;
  std::string image, dest;
  std::vector<std::string> paths;
};

Args ToRunExtractArgs(const ExtractArgs& a) {
  Args out;
  if (a.threads > 0) out = {"-p", std::to_string(a.threads)};
  if (a.overwrite) out.push_back("-f");
  if (a.quiet) out.push_back("-q");
  out.push_back(a.image);
  out.push_back(a.dest);
  out.insert(out.end(), a.paths.begin(), a.paths.end());
  return out;
}

}  // namespace

void AddExtractCommand(CLI::App* root, CommandRunner* run) {
  auto args = std::make_shared<ExtractArgs>();
  CLI::App* c = root->add_subcommand(
      "extract",
      "Extract the image (or the PATHs in it) into the directory DEST, with "
      "owners, "
      "modes, times, xattrs, hard links and special files.");
  c->add_option("-p", args->threads,
                "decoding and writing threads (default: two per core this "
                "process may use)")
      ->type_name("N")
      ->check(CLI::Range(1, 256));
  c->add_flag("-f", args->overwrite,
              "overwrite entries that already exist in DEST (by default "
              "extract refuses, as unsquashfs does)");
  c->add_flag("-q", args->quiet,
              "quiet: no progress bar on a terminal, no summary line");
  c->add_option("IMG", args->image, "the SquashFS image")
      ->required()
      ->type_name("");
  c->add_option("DEST", args->dest, "the directory to extract into")
      ->required()
      ->type_name("");
  c->add_option("PATH", args->paths, "what to extract (default: /)")
      ->type_name("");
  c->callback([args, run] {
    *run = [args] { return RunExtract(ToRunExtractArgs(*args)); };
  });
}

}  // namespace squashlab::cli
