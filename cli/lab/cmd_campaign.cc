// SPDX-License-Identifier: GPL-2.0-only
// This file implements `squashlab campaign`: the bounded exhaustive search
// of the chosen cells, partitioned by schedule prefix so that Bazel test
// shards, remote executors or local threads each search a disjoint part,
// every part writing its counts, outcomes and violations as JSON for
// `squashlab merge`; resumable from a checkpoint.
#include <CLI/CLI.hpp>
#include <memory>

#include "cli/arg_checks.h"
#include "cli/commands.h"
#include "cli/lab/campaign_job.h"
#include "cli/lab/exploration_options.h"

namespace squashlab::cli {

void AddCampaignCommand(CLI::App* root, CommandRunner* run) {
  auto args = std::make_shared<CampaignJobArgs>();
  args->opt.all_classes = true;  // both kernels by default, as verify
  CLI::App* c = root->add_subcommand(
      "campaign",
      "Search every schedule of the chosen cells up to a preemption bound "
      "(exhaustive, with partial-order reduction), split by schedule prefix "
      "into parts that shards or threads search separately; record every "
      "violation class and the outcomes reached.");
  AddCellOptions(c, &args->opt);
  AddPlanOptions(c, &args->opt);
  AddBoundOptions(c, &args->opt);
  AddArenaOption(c);
  c->add_option("--shard", args->shard,
                "search part I of N (default: Bazel's TEST_SHARD_INDEX and "
                "TEST_TOTAL_SHARDS, else the whole search)")
      ->type_name("I/N")
      ->check(CLI::Validator(
          [](const std::string& t) {
            int i = 0, n = 0;
            return ParseShard(t, &i, &n);
          },
          "", "shard"));
  c->add_option("--jobs", args->jobs,
                "split the search into N parts searched by N threads here")
      ->capture_default_str()
      ->type_name("N")
      ->check(AtLeast(1));
  c->add_option("--subtrees-per-part", args->subtrees_per_part,
                "subtrees the search is cut into, per part (the same for "
                "every part of a campaign)")
      ->capture_default_str()
      ->type_name("N")
      ->check(AtLeast(1));
  c->add_option("--out", args->out,
                "write the part's result (the merged one with --jobs) as JSON "
                "(docs/schema/campaign.schema.json); under Bazel the default "
                "is campaign-part-I-of-N.json in the test's outputs")
      ->type_name("FILE")
      ->check(WritableFile());
  c->add_option("--checkpoint", args->checkpoint,
                "resume from FILE if it exists; save the search's position "
                "there as it goes (FILE.K per part with --jobs)")
      ->type_name("FILE")
      ->check(WritableFile());
  c->add_option("--expect", args->expect,
                "VARIANT=clean or VARIANT=fail (repeatable); as for verify")
      ->type_name("V=clean|fail");
  c->footer(
      "The parts of one campaign search disjoint subtrees and together "
      "exactly the runs of one process; `squashlab merge` adds them up. "
      "SIGINT or SIGTERM stops after the current run (its position saved "
      "with --checkpoint); the same command resumes with the next run.\n"
      "Exit status: 0 every part finished and every verdict as expected "
      "(a shard need not find a violation expected of the whole), 1 not, "
      "2 usage, 4 an output could not be written, 130 interrupted.");
  c->callback([args, run] { *run = [args] { return RunCampaignJob(*args); }; });
}

}  // namespace squashlab::cli
