// SPDX-License-Identifier: GPL-2.0-only
// This file implements the merge of a campaign's parts into one result:
// counts and schedule digests added, outcome sets united, each report
// class kept at its earliest run in the whole search's depth-first order
// (so the merged first finding is the one a single process would meet
// first), and the verdict table of `squashlab merge`.
#ifndef SQUASHLAB_HARNESS_CAMPAIGN_CAMPAIGN_MERGE_H_
#define SQUASHLAB_HARNESS_CAMPAIGN_CAMPAIGN_MERGE_H_

#include <string>
#include <vector>

#include "harness/campaign/campaign.h"
#include "reader/status.h"

namespace squashlab {

struct MergedCampaign {
  CampaignResult result;     // part 0 of 1 when every part is there
  std::vector<int> missing;  // parts not given
  bool finished = false;     // every part given and finished
};

// Fails when the parts are of different campaigns or a part is given
// twice.
StatusOr<MergedCampaign> MergeCampaign(
    const std::vector<CampaignResult>& parts);

// One row per cell: runs, complete, pruned, distinct outcomes, verdict
// (the classes with their runs and the first token), then a summary line.
std::string FormatCampaignTable(const MergedCampaign& m);

}  // namespace squashlab

#endif  // SQUASHLAB_HARNESS_CAMPAIGN_CAMPAIGN_MERGE_H_
