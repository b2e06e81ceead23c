// SPDX-License-Identifier: GPL-2.0-only
// This file implements `squashlab verify`: the model's exploration of every
// read-path variant x decompressor strategy over scenarios of a real image.
// It prints, per cell, every distinct failure class found and ends in the
// verdict table and a one-line summary; the exit status says whether the
// verdicts met the expectations (cli/lab/verify_expectations.h).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/arg_checks.h"
#include "cli/cli_status.h"
#include "cli/commands.h"
#include "cli/lab/campaign_job.h"
#include "cli/lab/exploration_options.h"
#include "cli/lab/model_choices.h"
#include "cli/lab/verify_expectations.h"
#include "cli/lab/verify_json.h"
#include "cli/lab/verify_out_dir.h"
#include "cli/lab/verify_report.h"
#include "harness/source_tree.h"
#include "harness/verify/verify.h"

namespace squashlab::cli {
namespace {

VerifyOptions DefaultVerifyOptions() {
  VerifyOptions opt;
  // On the seed's bugs random sampling finds more classes in the time than
  // PCT does (every class of async-2013 on both kernels within the default
  // job's share).
  opt.strategy = "random";
  return opt;
}

struct VerifyArgs {
  VerifyOptions opt = DefaultVerifyOptions();
  bool first_only = false;
  bool all_classes = false;
  bool verbose = false;
  std::vector<std::string> expect;
  std::string json, out_dir;
  std::string source;  // a user's fs/squashfs tree
  // --source's default job without these workloads (what a bug needs of
  // it: a job without one of its actors).
  std::vector<std::string> without;
  int jobs = 0;  // > 0: the partitioned exhaustive search on threads
};

std::vector<std::string> VariantsRun(const VerifyOptions& opt) {
  return opt.variants.empty() ? VariantNames() : opt.variants;
}

// Runs the job. By time, with variants expected to fail and others both
// present, each group gets half of the time: collecting a failing variant's
// classes on both kernels needs as much as showing the others clean.
StatusOr<VerifyResult> RunSplitByExpectation(const VerifyOptions& opt,
                                             const Expectations& e,
                                             std::ostream* log) {
  std::vector<std::string> fail, clean;
  for (const std::string& v : VariantsRun(opt)) {
    auto it = e.find(v);
    (it != e.end() && it->second ? fail : clean).push_back(v);
  }
  if (opt.budget > 0 || fail.empty() || clean.empty())
    return RunVerify(opt, log);
  VerifyResult all;
  for (const auto* group : {&clean, &fail}) {
    VerifyOptions part = opt;
    part.variants = *group;
    part.seconds = opt.seconds / 2;
    auto r = RunVerify(part, log);
    if (!r.ok()) return r.status();
    for (CellResult& c : r->cells) all.cells.push_back(std::move(c));
    all.seconds += r->seconds;
  }
  // Back in table order.
  const std::vector<std::string> order = VariantsRun(opt);
  std::stable_sort(all.cells.begin(), all.cells.end(),
                   [&](const CellResult& a, const CellResult& b) {
                     return std::find(order.begin(), order.end(), a.variant) <
                            std::find(order.begin(), order.end(), b.variant);
                   });
  return all;
}

// Builds the user's tree into "linux-src" (the compiler's output goes to
// stderr as it printed it). Returns an exit status, or -1 to go on.
int BuildSource(VerifyArgs& args) {
  std::cerr << "squashlab verify: building " << args.source
            << " against the header layer\n";
  auto tree =
      LoadSourceTree(args.source, &std::cerr, args.opt.detector == "kcsan");
  if (!tree.ok())
    return UsageError(
        "verify", "--source " + args.source + ": " + tree.status().ToString());
  std::cerr << "squashlab verify: " << tree->dir << " built"
            << (tree->cached ? " (cached)" : "") << ", strategies "
            << (tree->by_mount ? "chosen at mount (threads=)"
                               : "one module each")
            << "\n";
  if (args.opt.variants.empty()) args.opt.variants = {"linux-src"};
  if (args.opt.decomps.empty())
    args.opt.decomps = {"single", "multi", "percpu"};
  // A user's tree also reads every file of the image (`every`): each shape
  // the tree's code handles (sparse and uncompressed blocks, fragment-only
  // files, fragment tails), whichever path of it the patch touched. And,
  // unless the command names a plan or a device, the world around the
  // tree's read path: pages dropped by fadvise, faults through a mapping,
  // migration, lookups, getdents, readlink and xattrs beside the readers.
  const bool named_workloads = !args.opt.workloads.empty();
  if (args.opt.workloads.empty()) {
    args.opt.workloads = DefaultWorkloads();
    args.opt.workloads.push_back("every");
    if (args.opt.variants == std::vector<std::string>{"linux-src"} &&
        args.opt.faults.empty() && args.opt.device.empty())
      for (const std::string& w : WorldWorkloads())
        args.opt.workloads.push_back(w);
  } else if (!args.without.empty()) {
    return UsageError("verify",
                      "--without-workload needs the default job "
                      "(no --workload)");
  }
  // And the images people ship, not only the embedded one: the image
  // generator's default shapes (mksquashfs's defaults, shared tail-end
  // fragments, small blocks, another codec) beside it.
  ImageChoice& img = args.opt.images;
  if (img.images.empty() && img.shapes.empty()) img.shapes = {"default"};
  // And its error paths: two workloads again under the eio plan (1 in 6
  // bios fails), unless the command names its own plan or device, or
  // searches exhaustively (whose reduction assumes one plan).
  if (args.opt.faults.empty() && args.opt.device.empty() &&
      args.opt.strategy != "exhaustive")
    args.opt.eio_workloads = {"dd2", "every"};
  // And a device of 4096-byte logical blocks (harness/verify/verify.h).
  if (args.opt.faults.empty() && args.opt.device.empty() &&
      args.opt.strategy != "exhaustive")
    AddPageSizedBlockDevice(args.opt, named_workloads);
  auto without = [&](const std::string& w) {
    return std::find(args.without.begin(), args.without.end(), w) !=
           args.without.end();
  };
  std::erase_if(args.opt.workloads, without);
  std::erase_if(args.opt.eio_workloads, without);
  std::erase_if(args.opt.second_device_workloads, without);
  if (args.opt.workloads.empty())
    return UsageError("verify", "--without-workload left no workload");
  return -1;
}

// --jobs: the exhaustive search split as a campaign's is, one part per
// thread, ending in the campaign's table.
int RunVerifyJobs(const VerifyArgs& args) {
  if (args.opt.strategy != "exhaustive")
    return UsageError("verify", "--jobs needs --strategy exhaustive");
  if (!args.out_dir.empty())
    return UsageError("verify", "--jobs writes no --out directory");
  CampaignJobArgs c;
  c.command = "verify";
  c.opt = args.opt;
  c.opt.all_classes = true;
  c.shard = "0/1";
  c.jobs = args.jobs;
  c.out = args.json;
  c.expect = args.expect;
  return RunCampaignJob(c);
}

int RunVerifyJob(VerifyArgs& args) {
  // --without-workload trims the default job of a tree built here.
  if (!args.without.empty() && args.source.empty())
    return UsageError("verify", "--without-workload needs --source DIR");
  // KCSAN's instrumentation is compiled in: only a tree built here has it.
  if (args.opt.detector == "kcsan" && args.source.empty())
    return UsageError("verify", "--detector kcsan needs --source DIR");
  if (args.opt.watchpoints && args.opt.detector != "kcsan")
    return UsageError("verify", "--watchpoints needs --detector kcsan");
  if (!args.source.empty()) {
    int rc = BuildSource(args);
    if (rc >= 0) return rc;
  }
  if (args.jobs > 0) return RunVerifyJobs(args);
  VerifyOptions& opt = args.opt;
  opt.all_classes = !args.first_only;
  Expectations expected = args.expect.empty() && opt.variants.empty()
                              ? DefaultExpectations(VariantsRun(opt))
                              : AllClean(VariantsRun(opt));
  for (const std::string& e : args.expect) {
    std::string problem = ParseExpectation(e, &expected);
    if (!problem.empty()) return UsageError("verify", "--expect " + problem);
  }
  const std::vector<std::string> known = VariantNamesWithSource();
  for (const auto& [variant, fail] : expected)
    if (std::find(known.begin(), known.end(), variant) == known.end())
      return UsageError("verify", "--expect: no variant '" + variant + "'");
  std::cerr << "squashlab verify: exploring " << VariantsRun(opt).size()
            << " variants x "
            << (opt.decomps.empty() ? DecompNames().size() : opt.decomps.size())
            << " decompressors ("
            << (opt.budget > 0
                    ? std::to_string(opt.budget) + " schedules a cell"
                    : std::to_string(static_cast<long>(opt.seconds)) + " s")
            << ")\n";
  auto res =
      RunSplitByExpectation(opt, expected, args.verbose ? &std::cerr : nullptr);
  if (!res.ok()) return UsageError("verify", res.status().ToString());
  if (!args.json.empty()) {
    Status st = WriteVerifyJson(args.json, *res, opt, expected);
    if (!st.ok()) return Fail("", args.json, st);
  }
  if (!args.out_dir.empty()) {
    Status st = WriteVerifyOutDir(args.out_dir, *res);
    if (!st.ok()) return Fail("", args.out_dir, st);
  }
  const std::vector<std::string> unmet = UnmetExpectations(*res, expected);
  VerifyReportOptions ro;
  ro.listings = args.verbose;
  ro.all_classes = args.all_classes;
  ro.json = args.json;
  ro.out_dir = args.out_dir;
  std::cout << FormatVerifyReport(*res, ro)
            << FormatVerifySummary(*res, expected, unmet);
  return unmet.empty() ? kExitOk : 1;
}

void AddExplorationOptions(CLI::App* c, VerifyOptions* opt) {
  AddCellOptions(c, opt);
  c->add_option("--strategy", opt->strategy, "how schedules are chosen")
      ->capture_default_str()
      ->check(CLI::IsMember({"pct", "random", "exhaustive"}));
  c->add_option("--budget", opt->budget,
                "schedules per variant x decompressor (default 0: by time)")
      ->type_name("N")
      ->check(AtLeast(0));
  c->add_option("--time", opt->seconds,
                "seconds for the whole job when --budget is 0")
      ->capture_default_str()
      ->type_name("S")
      ->check(PositiveSeconds());
  AddPlanOptions(c, opt);
  AddBoundOptions(c, opt);
  AddDetectorOptions(c, opt);
  AddArenaOption(c);
  c->add_flag_callback(
      "--no-minimise", [opt] { opt->minimise = false; },
      "report failures as found, not minimised");
  c->add_option("--minimise-budget", opt->minimise_budget,
                "replays to minimise each class")
      ->capture_default_str()
      ->type_name("N")
      ->check(AtLeast(0));
}

}  // namespace

void AddVerifyCommand(CLI::App* root, CommandRunner* run) {
  auto args = std::make_shared<VerifyArgs>();
  CLI::App* c =
      root->add_subcommand("verify",
                           "Explore the schedules of every read-path variant x "
                           "decompressor strategy on the model "
                           "kernel (debug and production) and report every "
                           "distinct failure class per cell.");
  AddExplorationOptions(c, &args->opt);
  c->add_flag_callback(
      "--classes", [] {},
      "collect every class: the default (accepted for older command lines)");
  c->add_flag("--first-only", args->first_only,
              "stop each cell at its first violation instead of collecting "
              "every class");
  c->add_flag("--all-classes", args->all_classes,
              "list every failure class, and per cell each with its kernel, "
              "schedules to the first and replay token, besides their root "
              "causes");
  c->add_option("--expect", args->expect,
                "VARIANT=clean or VARIANT=fail (repeatable); variants not "
                "named are expected "
                "clean")
      ->type_name("V=clean|fail");
  c->add_flag("-v,--verbose", args->verbose,
              "progress per cell, and each class's report with its minimised "
              "ftrace listing");
  c->add_option("--source", args->source,
                "a fs/squashfs directory (or a kernel tree) to build with the "
                "system C compiler against the header layer and explore as "
                "read path linux-src")
      ->type_name("DIR")
      ->check(CLI::ExistingDirectory);
  c->add_option("--without-workload", args->without,
                "with --source: the default job without this workload "
                "(repeatable)")
      ->type_name("W")
      ->check(CLI::IsMember(WorkloadNames()));
  c->add_option("--json", args->json,
                "write the result as JSON (docs/schema/verify.schema.json)")
      ->type_name("FILE")
      ->check(WritableFile());
  c->add_option("--jobs", args->jobs,
                "exhaustive: split the search by schedule prefix into N parts "
                "searched by N threads, to the end (no budget or time), and "
                "print the campaign table (see campaign); --json then writes "
                "docs/schema/campaign.schema.json")
      ->type_name("N")
      ->check(AtLeast(1));
  c->add_option("--out", args->out_dir,
                "write per class the report, the minimised ftrace listing and "
                "a Perfetto trace")
      ->type_name("DIR")
      ->check(WritableDir());
  c->footer(
      "With no --variant and no --expect, the job expects what the seed thread "
      "found: "
      "async-2013 fails, every other variant is clean. By time (no --budget), "
      "variants expected "
      "to fail get half of it, the others the other half; in each cell the "
      "last quarter "
      "minimises the classes found.\n"
      "Exit status: 0 every verdict as expected, 1 a violation found where "
      "none was expected "
      "(or none where one was), 2 usage, 4 an output could not be written.");
  c->callback([args, run] { *run = [args] { return RunVerifyJob(*args); }; });
}

}  // namespace squashlab::cli
