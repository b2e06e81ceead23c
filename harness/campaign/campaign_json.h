// SPDX-License-Identifier: GPL-2.0-only
// This file implements the JSON form of a campaign part (and of merged
// parts): what `squashlab campaign` writes per shard and as its checkpoint,
// and what `squashlab merge` reads (docs/schema/campaign.schema.json).
#ifndef SQUASHLAB_HARNESS_CAMPAIGN_CAMPAIGN_JSON_H_
#define SQUASHLAB_HARNESS_CAMPAIGN_CAMPAIGN_JSON_H_

#include <string>

#include "harness/campaign/campaign.h"
#include "reader/status.h"

namespace squashlab {

std::string CampaignJson(const CampaignResult& r);
StatusOr<CampaignResult> ParseCampaignJson(const std::string& text);

// Writes atomically (a temporary file renamed over `path`), so that a
// checkpoint is whole even when the process dies while writing it.
Status WriteCampaignJson(const std::string& path, const CampaignResult& r);
StatusOr<CampaignResult> ReadCampaignJson(const std::string& path);

}  // namespace squashlab

#endif  // SQUASHLAB_HARNESS_CAMPAIGN_CAMPAIGN_JSON_H_
