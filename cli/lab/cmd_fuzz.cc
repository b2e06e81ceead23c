// SPDX-License-Identifier: GPL-2.0-only
// This file implements `squashlab fuzz`: real fs/squashfs (a built-in
// release or a user's tree, as `verify --source` builds it) fed malformed
// images in process — each a seed mutated field by field, mounted by the
// tree's own fill_super and walked as a user would — under the model's
// checkers; ends in the table of findings (exit 1 if any). `--replay
// IMAGE` walks one image once and prints what it reports.
#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/arg_checks.h"
#include "cli/cli_status.h"
#include "cli/commands.h"
#include "cli/lab/exploration_options.h"
#include "cli/lab/fuzz_report.h"
#include "harness/realfuzz/fuzz_engine.h"
#include "harness/realfuzz/seeds.h"
#include "harness/source_tree.h"

namespace squashlab::cli {
namespace {

struct FuzzArgs {
  std::string source, variant, decomp = "single";
  std::string replay, json, out_dir;
  std::vector<std::string> seed_images;
  double seconds = 60;
  long runs = 0;
  uint64_t seed = 1;
  bool stop_at_first = false;
  long minimise_budget = 400;
};

int RunFuzzJob(const FuzzArgs& args) {
  FuzzRun run;
  std::string variant = args.variant.empty() ? "linux-6.12" : args.variant;
  if (!args.source.empty()) {
    if (!args.variant.empty())
      return UsageError("fuzz", "--source and --variant exclude each other");
    std::cerr << "squashlab fuzz: building " << args.source
              << " against the header layer\n";
    auto tree = LoadSourceTree(args.source, &std::cerr);
    if (!tree.ok())
      return UsageError(
          "fuzz", "--source " + args.source + ": " + tree.status().ToString());
    variant = "linux-src";
    run.target = tree->dir + " (linux-src/" + args.decomp + ")";
    run.replay_arg = "--source " + args.source;
  } else {
    run.target = variant + "/" + args.decomp;
    run.replay_arg = "--variant " + variant;
  }
  if (args.decomp != "single") run.replay_arg += " --decomp " + args.decomp;
  auto target = MakeWalkTarget(variant, args.decomp);
  if (!target.ok()) return UsageError("fuzz", target.status().ToString());
  FuzzOptions opt;
  opt.target = *target;
  if (!args.replay.empty()) {
    std::ifstream in(args.replay, std::ios::binary);
    if (!in) return UsageError("fuzz", "--replay: cannot read " + args.replay);
    std::vector<uint8_t> image(std::istreambuf_iterator<char>(in), {});
    WalkOutcome o = RunWalk(opt.target, opt.limits, image);
    for (const Report& r : o.reports) std::cout << r.ToString() << "\n";
    std::cout << "squashlab fuzz: " << args.replay << " on " << run.target
              << ": "
              << (o.reports.empty()
                      ? std::string("clean")
                      : std::to_string(o.reports.size()) + " report(s)")
              << " (" << o.steps << " steps)\n";
    return o.reports.empty() ? kExitOk : 1;
  }
  auto seeds = args.seed_images.empty() ? DefaultFuzzSeeds()
                                        : LoadSeedImages(args.seed_images);
  if (!seeds.ok()) return UsageError("fuzz", seeds.status().ToString());
  opt.seeds = std::move(seeds).value();
  opt.seconds = args.runs > 0 && args.seconds == 60 ? 0 : args.seconds;
  opt.max_execs = args.runs;
  opt.seed = args.seed;
  opt.stop_at_first = args.stop_at_first;
  opt.minimise_budget = args.minimise_budget;
  std::cerr << "squashlab fuzz: " << run.target << ", " << opt.seeds.size()
            << " seed images, "
            << (args.runs > 0
                    ? std::to_string(args.runs) + " executions"
                    : std::to_string(static_cast<long>(opt.seconds)) + " s")
            << "\n";
  FuzzResult res = RunFuzz(opt, &std::cerr);
  if (!args.out_dir.empty()) {
    Status st = WriteFuzzImages(args.out_dir, res, &run);
    if (!st.ok()) return Fail("", args.out_dir, st);
  }
  if (!args.json.empty()) {
    Status st = WriteFuzzJson(args.json, res, run);
    if (!st.ok()) return Fail("", args.json, st);
  }
  std::cout << FormatFuzzReport(res, run);
  return res.findings.empty() ? kExitOk : 1;
}

}  // namespace

void AddFuzzCommand(CLI::App* root, CommandRunner* run) {
  auto args = std::make_shared<FuzzArgs>();
  CLI::App* c = root->add_subcommand(
      "fuzz",
      "Feed real fs/squashfs malformed images in process: each a seed "
      "image mutated field by field, mounted by the code's own fill_super "
      "and walked (every directory listed and name looked up, every file "
      "read in several chunk sizes and its last page, symlinks, xattrs, "
      "file handles) under KASAN, UBSAN, kmemleak, lockdep and the "
      "hung-task check; a table of findings, one per title.");
  c->add_option("--source", args->source,
                "a fs/squashfs directory (or a kernel tree) to build as "
                "`verify --source` does and fuzz")
      ->type_name("DIR")
      ->check(CLI::ExistingDirectory);
  c->add_option("--variant", args->variant,
                "a built-in release instead (default linux-6.12)")
      ->type_name("linux-6.12|linux-6.1")
      ->check(CLI::IsMember({"linux-6.12", "linux-6.1"}));
  c->add_option("--decomp", args->decomp, "decompressor strategy")
      ->capture_default_str()
      ->check(CLI::IsMember({"single", "multi", "percpu"}));
  c->add_option("--time", args->seconds, "seconds to fuzz")
      ->capture_default_str()
      ->type_name("S")
      ->check(PositiveSeconds());
  c->add_option("--runs", args->runs,
                "stop after N executions (then --time only if given)")
      ->type_name("N")
      ->check(AtLeast(1));
  c->add_option("--seed", args->seed, "the mutator's seed")
      ->capture_default_str();
  c->add_option("--seed-image", args->seed_images,
                "seed images (files or directories; repeatable) instead of "
                "the default ones (mksquashfs of a small tree with "
                "uncompressed metadata, and the embedded image)")
      ->type_name("PATH");
  c->add_flag("--stop-at-first", args->stop_at_first,
              "stop at the first finding");
  c->add_option("--minimise-budget", args->minimise_budget,
                "walks to minimise each finding's image")
      ->capture_default_str()
      ->type_name("N")
      ->check(AtLeast(0));
  c->add_option("--replay", args->replay,
                "walk this image once and print what it reports")
      ->type_name("IMAGE")
      ->check(CLI::ExistingFile);
  c->add_option("--out", args->out_dir,
                "write each finding's minimised image (finding-N.sqfs), the "
                "image as found and its report (images padded to 4 KiB, as "
                "the walk's disk and a loop device hold them)")
      ->type_name("DIR")
      ->check(WritableDir());
  c->add_option("--json", args->json, "write the findings as JSON")
      ->type_name("FILE")
      ->check(WritableFile());
  AddArenaOption(c);
  c->footer(
      "Exit status: 0 nothing found (or --replay clean), 1 a finding (or "
      "--replay reported), 2 usage, 4 an output could not be written.");
  c->callback([args, run] { *run = [args] { return RunFuzzJob(*args); }; });
}

}  // namespace squashlab::cli
