// SPDX-License-Identifier: GPL-2.0-only
// This file implements the tests of a campaign stopped and resumed: stopped
// after a random number of runs (as SIGINT stops it), its checkpoint
// written as JSON and read back, and resumed, again and again,
// it ends with exactly the totals of an uninterrupted campaign — runs,
// abandoned runs, schedule digest, outcomes, classes with their first
// schedule and their run counts.
#include <gtest/gtest.h>

#include <random>

#include "harness/campaign/campaign.h"
#include "harness/campaign/campaign_json.h"

namespace squashlab {
namespace {

CampaignOptions Options(int part, int parts) {
  CampaignOptions o;
  o.verify.variants = {"async-2013"};
  o.verify.decomps = {"single"};
  o.verify.workloads = {"pair"};
  o.verify.kernels = {"debug", "prod"};
  o.verify.preemption_bound = 0;
  o.part = part;
  o.parts = parts;
  return o;
}

void ExpectSameTotals(const CampaignResult& a, const CampaignResult& b) {
  ASSERT_EQ(a.cells.size(), b.cells.size());
  for (size_t i = 0; i < a.cells.size(); i++) {
    const CampaignCell &x = a.cells[i], &y = b.cells[i];
    EXPECT_EQ(x.runs, y.runs);
    EXPECT_EQ(x.pruned, y.pruned);
    EXPECT_EQ(x.failing, y.failing);
    EXPECT_EQ(x.digest, y.digest);
    EXPECT_EQ(x.outcomes, y.outcomes);
    ASSERT_EQ(x.classes.size(), y.classes.size());
    for (size_t k = 0; k < x.classes.size(); k++) {
      EXPECT_EQ(x.classes[k].title, y.classes[k].title);
      EXPECT_EQ(x.classes[k].token, y.classes[k].token);
      EXPECT_EQ(x.classes[k].runs, y.classes[k].runs);
    }
  }
}

TEST(CampaignResume, StoppedAndResumedGivesTheUninterruptedTotals) {
  std::mt19937 rng(std::random_device{}());
  for (int parts : {1, 2}) {
    for (int part = 0; part < parts; part++) {
      auto whole = RunCampaign(Options(part, parts), nullptr, {});
      ASSERT_TRUE(whole.ok()) << whole.status().ToString();
      ASSERT_TRUE(whole->finished());
      ASSERT_GT(whole->cells.front().runs, 10);
      // Stop after a random number of commits, resume from the JSON, until
      // done.
      std::string checkpoint;
      int stops = 0;
      for (int attempt = 0; attempt < 100; attempt++) {
        // Stop after a random number of runs, as a signal would, inside a
        // subtree or between two.
        const long runs_before_stop =
            std::uniform_int_distribution<long>(1, 400)(rng);
        std::atomic<bool> stop{false};
        CampaignHooks hooks;
        hooks.stop = &stop;
        hooks.progress = [&](const CampaignProgress& p) {
          if (p.session_runs >= runs_before_stop) stop.store(true);
        };
        CampaignResult resume;
        if (!checkpoint.empty()) {
          auto r = ParseCampaignJson(checkpoint);
          ASSERT_TRUE(r.ok()) << r.status().ToString();
          resume = std::move(r).value();
        }
        auto r = RunCampaign(Options(part, parts),
                             checkpoint.empty() ? nullptr : &resume, hooks);
        ASSERT_TRUE(r.ok()) << r.status().ToString();
        checkpoint = CampaignJson(r.value());
        if (r->finished()) break;
        stops++;
      }
      auto last = ParseCampaignJson(checkpoint);
      ASSERT_TRUE(last.ok());
      ASSERT_TRUE(last->finished());
      EXPECT_GT(stops, 0) << "never stopped: the test proves nothing";
      ExpectSameTotals(last.value(), whole.value());
    }
  }
}

TEST(CampaignResume, ACheckpointOfAnotherCampaignIsRefused) {
  auto r = RunCampaign(Options(0, 2), nullptr, {});
  ASSERT_TRUE(r.ok());
  CampaignOptions other = Options(0, 2);
  other.verify.preemption_bound = 1;
  EXPECT_FALSE(RunCampaign(other, &r.value(), {}).ok());
  EXPECT_FALSE(RunCampaign(Options(1, 2), &r.value(), {}).ok());
}

}  // namespace
}  // namespace squashlab
