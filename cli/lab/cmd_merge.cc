// SPDX-License-Identifier: GPL-2.0-only
// This file implements `squashlab merge FILE...`: the JSON of a campaign's
// parts combined into one verdict table and one JSON.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/arg_checks.h"
#include "cli/cli_status.h"
#include "cli/commands.h"
#include "cli/lab/model_choices.h"
#include "cli/lab/verify_expectations.h"
#include "harness/campaign/campaign_json.h"
#include "harness/campaign/campaign_merge.h"

namespace squashlab::cli {
namespace {

struct MergeArgs {
  std::vector<std::string> files, expect;
  std::string json;
};

int RunMerge(const MergeArgs& args) {
  std::vector<CampaignResult> parts;
  for (const std::string& f : args.files) {
    auto r = ReadCampaignJson(f);
    if (!r.ok()) return Fail("", f, r.status());
    parts.push_back(std::move(r).value());
  }
  auto m = MergeCampaign(parts);
  if (!m.ok()) return UsageError("merge", m.status().ToString());
  std::vector<std::string> variants;
  for (const CampaignCell& c : m->result.cells) variants.push_back(c.variant);
  Expectations expected =
      args.expect.empty() ? DefaultExpectations(variants) : AllClean(variants);
  for (const std::string& e : args.expect) {
    std::string problem = ParseExpectation(e, &expected);
    if (!problem.empty()) return UsageError("merge", "--expect " + problem);
  }
  if (!args.json.empty()) {
    Status st = WriteCampaignJson(args.json, m->result);
    if (!st.ok()) return Fail("", args.json, st);
  }
  std::cout << FormatCampaignTable(m.value());
  bool ok = m->finished;
  for (const CampaignCell& c : m->result.cells) {
    auto it = expected.find(c.variant);
    const bool want_fail = it != expected.end() && it->second;
    if (want_fail != !c.classes.empty()) {
      std::cout << "unexpected: " << c.variant << " x " << c.decomp << " "
                << (want_fail ? "clean" : "fails") << "\n";
      ok = false;
    }
  }
  return ok ? kExitOk : 1;
}

}  // namespace

void AddMergeCommand(CLI::App* root, CommandRunner* run) {
  auto args = std::make_shared<MergeArgs>();
  CLI::App* c = root->add_subcommand(
      "merge",
      "Combine the JSON files of a campaign's parts (squashlab campaign, one "
      "per shard) into one verdict table and one JSON.");
  c->add_option("FILE", args->files, "a part's JSON (repeatable)")
      ->required()
      ->check(CLI::ExistingFile);
  c->add_option("--json", args->json,
                "write the merged result (docs/schema/campaign.schema.json)")
      ->type_name("FILE")
      ->check(WritableFile());
  c->add_option("--expect", args->expect,
                "VARIANT=clean or VARIANT=fail (repeatable; default: "
                "async-2013 fails, the others are clean)")
      ->type_name("V=clean|fail");
  c->footer(
      "Counts and schedule digests add up, outcome sets unite, and each "
      "class keeps its earliest run in the search's order (the one a single "
      "process meets first).\n"
      "Exit status: 0 every part given, finished, and every verdict as "
      "expected; 1 not (the table says which parts are missing); 2 usage or "
      "parts of different campaigns; 3 a file that is not a campaign part; "
      "4 the JSON could not be written.");
  c->callback([args, run] { *run = [args] { return RunMerge(*args); }; });
}

}  // namespace squashlab::cli
