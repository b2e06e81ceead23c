// SPDX-License-Identifier: GPL-2.0-only
// Tests of the campaign's progress line: runs and rate, the cell and bound
// of the part furthest behind, subtrees, and the time left only once
// something is done.
#include "harness/campaign/campaign_progress.h"

#include <gtest/gtest.h>

namespace squashlab::cli {
namespace {

PartState Part(long runs, size_t cell, long done, long owned) {
  PartState p;
  p.runs = runs;
  p.cell_index = cell;
  p.cells = 4;
  p.cell = "async-fixed x cell" + std::to_string(cell);
  p.level = 1;
  p.subtrees_done = done;
  p.subtrees_owned = owned;
  return p;
}

TEST(CampaignProgress, FractionCountsCellsAndSubtrees) {
  EXPECT_DOUBLE_EQ(CampaignFraction({Part(0, 0, 0, 8)}), 0);
  EXPECT_DOUBLE_EQ(CampaignFraction({Part(0, 1, 4, 8)}), 1.5 / 4);
  EXPECT_DOUBLE_EQ(CampaignFraction({Part(0, 0, 0, 8), Part(0, 2, 0, 8)}),
                   (0 + 2.0 / 4) / 2);
}

TEST(CampaignProgress, LineShowsRunsRateCellBoundAndEta) {
  const std::string line = RenderCampaignProgress(
      {Part(12345, 1, 2, 8), Part(1000, 2, 1, 8)}, 2, 10);
  EXPECT_NE(line.find("13,345 runs (1,334/s)"), std::string::npos) << line;
  EXPECT_NE(line.find("async-fixed x cell1 (cell 2 of 4)"), std::string::npos)
      << line;
  EXPECT_NE(line.find("bound 1 of 2"), std::string::npos) << line;
  EXPECT_NE(line.find("subtrees 2/8"), std::string::npos) << line;
  // Done: (1 + 2/8)/4 and (2 + 1/8)/4, mean 0.421875; left 10 s * 0.578/0.422.
  EXPECT_NE(line.find("ETA 0:14"), std::string::npos) << line;
}

TEST(CampaignProgress, PartsSharingByClaimsAreNotSummed) {
  // Two parts claiming subtrees of one scenario each report the claims of
  // both (6 of 8): the line shows 6/8, not 12/16, and never more than all.
  PartState a = Part(10, 0, 6, 8), b = Part(10, 0, 6, 8);
  a.shared = b.shared = true;
  const std::string line = RenderCampaignProgress({a, b}, 2, 10);
  EXPECT_NE(line.find("subtrees 6/8"), std::string::npos) << line;
  // One part still in cell 0 after the other moved on: its claims count.
  PartState c = Part(10, 1, 0, 8);
  c.shared = true;
  const std::string behind = RenderCampaignProgress({a, c}, 2, 10);
  EXPECT_NE(behind.find("subtrees 6/8"), std::string::npos) << behind;
}

TEST(CampaignProgress, NoEtaBeforeAnythingIsDone) {
  const std::string line = RenderCampaignProgress({Part(5, 0, 0, 8)}, 2, 1);
  EXPECT_EQ(line.find("ETA"), std::string::npos) << line;
}

}  // namespace
}  // namespace squashlab::cli
