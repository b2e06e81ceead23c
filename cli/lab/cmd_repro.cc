// SPDX-License-Identifier: GPL-2.0-only
// This file implements `squashlab repro TOKEN [--image IMG] [--source DIR]
// [--trace-out FILE]`: replays one failure exactly from its replay token and
// prints its report and schedule (optionally as a Chrome trace JSON,
// viewable in Perfetto). A token of read path linux-src replays on the tree
// given with --source, built as verify --source builds it.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <string>

#include "cli/arg_checks.h"
#include "cli/cli_status.h"
#include "cli/commands.h"
#include "cli/lab/exploration_options.h"
#include "harness/linux_mount.h"
#include "harness/source_tree.h"
#include "harness/verify/verify.h"

namespace squashlab::cli {
namespace {

struct ReproArgs {
  std::string token, source, trace_out;
  squashlab::ImageChoice images;
};

int RunRepro(const ReproArgs& args) {
  if (!args.source.empty()) {
    // A token of a KCSAN kernel replays on the tree's KCSAN build.
    auto tree = squashlab::LoadSourceTree(args.source, &std::cerr,
                                          squashlab::TokenIsKcsan(args.token));
    if (!tree.ok())
      return UsageError(
          "repro", "--source " + args.source + ": " + tree.status().ToString());
  }
  auto r = squashlab::Repro(args.token, args.images, true);
  if (!r.ok()) return UsageError("repro", r.status().ToString());
  const squashlab::RunResult& run = r.value();
  if (!run.failed()) std::cout << "no violation in this schedule\n";
  for (const squashlab::Report& rep : run.reports)
    std::cout << rep.ToString();  // in order: a run goes on after a warning
  std::cout << run.trace.Ftrace("replay of " + args.token);
  if (!args.trace_out.empty() &&
      !squashlab::WriteRunTrace(args.trace_out, run)) {
    std::cerr << "squashlab repro: cannot write " << args.trace_out << "\n";
    return kExitIo;
  }
  return run.failed() ? 1 : 0;
}

}  // namespace

void AddReproCommand(CLI::App* root, CommandRunner* run) {
  auto args = std::make_shared<ReproArgs>();
  CLI::App* c =
      root->add_subcommand("repro",
                           "Replay one failure exactly from its replay token "
                           "(printed by verify) and print "
                           "its reports and schedule.");
  c->add_option("TOKEN", args->token, "a replay token, sq1:...")
      ->required()
      ->check(CLI::Validator(
          [](const std::string& t) -> std::string {
            return t.rfind("sq1:", 0) == 0 ? ""
                                           : "a replay token starts with sq1:";
          },
          "", "token"));
  c->add_option("--image", args->images.images,
                "the image the token was found on, or the images (files, "
                "directories) of the verify job that found it (default: the "
                "embedded image; a generated shape's is made again from its "
                "name)")
      ->type_name("IMG")
      ->check(CLI::ExistingPath);
  c->add_option("--file", args->images.files,
                "the --file paths the verify job was given (repeatable)")
      ->type_name("PATH");
  c->add_option("--source", args->source,
                "the kernel tree a linux-src token was found on (as "
                "verify --source took it)")
      ->type_name("DIR")
      ->check(CLI::ExistingDirectory);
  c->add_option("--trace-out", args->trace_out,
                "also write the schedule as a Chrome trace JSON (open in "
                "ui.perfetto.dev)")
      ->type_name("FILE")
      ->check(WritableFile());
  AddArenaOption(c);
  c->footer(
      "Exit status: 0 the schedule runs clean, 1 it reproduces a violation, 2 "
      "usage "
      "(or a token that does not parse), 4 the trace could not be written.");
  c->callback([args, run] { *run = [args] { return RunRepro(*args); }; });
}

}  // namespace squashlab::cli
