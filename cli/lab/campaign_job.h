// SPDX-License-Identifier: GPL-2.0-only
// This file implements a campaign job of the command line: this process's
// parts of a partitioned exhaustive search (one Bazel shard's, or all of
// them on local threads), resumed from and saved to a checkpoint, stopped
// cleanly by SIGINT or SIGTERM at a commit, with a progress line on a
// terminal; it ends in the verdict table and writes the JSON.
#ifndef SQUASHLAB_CLI_LAB_CAMPAIGN_JOB_H_
#define SQUASHLAB_CLI_LAB_CAMPAIGN_JOB_H_

#include <string>
#include <vector>

#include "harness/campaign/campaign.h"

namespace squashlab::cli {

struct CampaignJobArgs {
  std::string command = "campaign";  // for messages
  VerifyOptions opt;
  // This process's part: --shard, else Bazel's TEST_SHARD_INDEX /
  // TEST_TOTAL_SHARDS, else the whole search.
  std::string shard;
  int jobs = 1;  // local threads, each a part of its own
  long subtrees_per_part = kSubtreesPerPart;
  std::string out;         // JSON; under Bazel default in the outputs dir
  std::string checkpoint;  // resumed from when present, saved as it goes
  std::vector<std::string> expect;
};

// Exit status: 0 every part finished and every verdict as expected, 1 not,
// 2 usage, 4 an output could not be written, 130 interrupted (the
// checkpoint, if any, holds every run so far).
int RunCampaignJob(const CampaignJobArgs& args);

// "I/N" with 0 <= I < N; "" on success, else the problem.
std::string ParseShard(const std::string& text, int* index, int* total);

}  // namespace squashlab::cli

#endif  // SQUASHLAB_CLI_LAB_CAMPAIGN_JOB_H_
