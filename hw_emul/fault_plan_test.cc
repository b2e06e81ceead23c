// SPDX-License-Identifier: GPL-2.0-only
// This file implements the fault-plan tests: the string format round-trips
// (examples and a RapidCheck property), bad strings are refused, and the
// keyed draws are deterministic by seed and independent of other draws.
#include "hw_emul/fault_plan.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>

namespace squashlab {
namespace {

TEST(FaultPlan, ParsesTheIssueExampleAndPrintsItCanonically) {
  auto plan =
      FaultPlan::Parse("eio@sector=1234;reada_drop=0.3;flip=0.01;seed=7");
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_EQ(plan->eio_sectors, (std::vector<SectorRange>{{1234, 1234}}));
  EXPECT_EQ(plan->reada_drop, 0.3);
  EXPECT_EQ(plan->flip, 0.01);
  ASSERT_TRUE(plan->seed.has_value());
  EXPECT_EQ(*plan->seed, 7u);
  EXPECT_EQ(plan->ToString(),
            "eio@sector=1234;reada_drop=0.3;flip=0.01;seed=7");
}

TEST(FaultPlan, EveryKeyRoundTrips) {
  const std::string all =
      "eio@sector=10-20;eio@sector=99;eio=0.001;reada_drop=1;congest=4;flip@"
      "sector=7;"
      "flip=0.25;delay=0.5;delay_us=250;reorder=0.125;short=0.0625;seed="
      "18446744073709551615";
  auto plan = FaultPlan::Parse(all);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_EQ(plan->ToString(), all);
  EXPECT_EQ(plan->eio_sectors.size(), 2u);
  EXPECT_EQ(plan->congest, 4u);
  EXPECT_EQ(plan->delay_us, 250u);
  EXPECT_EQ(plan->short_completion, 0.0625);
  EXPECT_EQ(all.find(':'), std::string::npos);  // fits in a replay token
}

TEST(FaultPlan, EmptyAndNone) {
  EXPECT_TRUE(FaultPlan::Parse("")->empty());
  EXPECT_TRUE(FaultPlan::Parse("none")->empty());
  EXPECT_EQ(FaultPlan().ToString(), "");
}

TEST(FaultPlan, CanFailOnlyWithAFaultThatCostsBytes) {
  for (const char* text :
       {"eio=0.1", "eio@sector=8", "reada_drop=0.5", "short=0.2", "flip=0.01",
        "flip@sector=3-4", "delay=1;eio=0.1"}) {
    auto plan = FaultPlan::Parse(text);
    ASSERT_TRUE(plan.ok()) << text;
    EXPECT_TRUE(plan->can_fail()) << text;
  }
  for (const char* text : {"", "none", "delay=0.5;delay_us=300", "reorder=0.5",
                           "seed=3;congest=2"}) {
    auto plan = FaultPlan::Parse(text);
    ASSERT_TRUE(plan.ok()) << text;
    EXPECT_FALSE(plan->can_fail()) << text;
  }
}

TEST(FaultPlan, RefusesBadStrings) {
  for (const char* bad :
       {"eio", "eio=2", "eio=-0.1", "eio=abc", "frob=1", "eio@sector=5-3",
        "eio@sector=", "seed=x", ";", "eio=0.1;;flip=0.2", "delay_us=1.5"}) {
    EXPECT_FALSE(FaultPlan::Parse(bad).ok()) << bad;
  }
}

RC_GTEST_PROP(FaultPlanProp, ToStringParseRoundTrips, ()) {
  FaultPlan p;
  auto prob = [] {
    return *rc::gen::oneOf(rc::gen::just(0.0), rc::gen::just(1.0),
                           rc::gen::map(rc::gen::inRange(1, 1000000),
                                        [](int n) { return n / 1e6; }));
  };
  int n = *rc::gen::inRange(0, 3);
  for (int i = 0; i < n; i++) {
    uint64_t a = *rc::gen::inRange<uint64_t>(0, 1 << 30);
    uint64_t len = *rc::gen::inRange<uint64_t>(0, 100);
    p.eio_sectors.push_back({a, a + len});
  }
  p.eio = prob();
  p.reada_drop = prob();
  p.congest = *rc::gen::inRange<uint64_t>(0, 10);
  if (*rc::gen::arbitrary<bool>()) p.flip_sectors.push_back({5, 5});
  p.flip = prob();
  p.delay = prob();
  p.delay_us = *rc::gen::inRange<uint64_t>(0, 5000);
  p.reorder = prob();
  p.short_completion = prob();
  if (*rc::gen::arbitrary<bool>()) p.seed = *rc::gen::arbitrary<uint64_t>();
  auto back = FaultPlan::Parse(p.ToString());
  RC_ASSERT(back.ok());
  RC_ASSERT(*back == p);
}

TEST(FaultDraw, DeterministicBySeedAndKey) {
  FaultDraw a(7), b(7), c(8);
  int same = 0, differ = 0;
  for (uint64_t key = 0; key < 200; key++) {
    EXPECT_EQ(a.Value(FaultSite::kEio, key, 0),
              b.Value(FaultSite::kEio, key, 0));
    (a.Value(FaultSite::kEio, key, 0) == c.Value(FaultSite::kEio, key, 0)
         ? same
         : differ)++;
  }
  EXPECT_EQ(same, 0);
  EXPECT_EQ(differ, 200);
  // Sites and occurrences draw independently.
  EXPECT_NE(a.Value(FaultSite::kEio, 1, 0), a.Value(FaultSite::kFlip, 1, 0));
  EXPECT_NE(a.Value(FaultSite::kEio, 1, 0), a.Value(FaultSite::kEio, 1, 1));
}

TEST(FaultDraw, FiresAtAboutItsProbability) {
  FaultDraw d(42);
  int fired = 0;
  for (uint64_t key = 0; key < 20000; key++)
    fired += d.Fires(0.3, FaultSite::kReadaDrop, key, 0);
  EXPECT_NEAR(fired / 20000.0, 0.3, 0.02);
  EXPECT_FALSE(d.Fires(0, FaultSite::kEio, 1, 0));
  EXPECT_TRUE(d.Fires(1, FaultSite::kEio, 1, 0));
}

}  // namespace
}  // namespace squashlab
