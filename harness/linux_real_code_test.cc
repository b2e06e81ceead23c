// SPDX-License-Identifier: GPL-2.0-only
// This file implements the tests of real kernel code under the explorer:
// Linux 6.1 and 6.12's fs/squashfs, compiled unmodified, mount through their
// own fill_super, read every default workload's bytes correctly (the data
// oracle compares them) and run clean under PCT, under fault plans and on
// an hw_emul device; the oracle sees a wrong byte of theirs.
#include <gtest/gtest.h>

#include <algorithm>

#include "harness/test_scenarios.h"
#include "harness/verify/verify.h"
#include "model/linux/vfs_walk.h"

namespace squashlab {
namespace {

const std::vector<std::string> kReleases = {"linux-6.12", "linux-6.1"};
const std::vector<std::string> kStrategies = {"single", "multi", "percpu"};

TEST(LinuxRealCode, EveryReleaseAndStrategyIsCleanUnderPct) {
  ExpectCleanOnDefaultWorkloads(kReleases, kStrategies, 60);
}

TEST(LinuxRealCode, ReturnsTheBytesOrEioUnderFaults) {
  VerifyOptions opt;
  opt.budget = 40;
  for (const auto& faults : FaultPlans()) {
    CellResult c = ExploreScenarios(
        Scenarios("linux-6.12", "multi", {"dd2", "rand"}, faults), opt, 0);
    EXPECT_FALSE(c.found) << faults << "\n" << c.minimised.report.ToString();
  }
}

TEST(LinuxRealCode, RunsOnAnEmulatedDevice) {
  VerifyOptions opt;
  opt.budget = 20;
  opt.device = "emmc-hs200";
  CellResult c = ExploreScenarios(
      Scenarios("linux-6.12", "percpu", {"dd2"}, "", nullptr, "emmc-hs200"),
      opt, 0);
  EXPECT_FALSE(c.found) << c.minimised.report.ToString();
  EXPECT_EQ(c.runs, 20);
}

// 6.12's fill_super makes its cache of partly read compressed blocks only
// when the device block (sb_min_blocksize: at least the device's logical
// block) is a page: the cached bio path is never taken on the RAM disk's
// 512-byte sectors, and is on the device `verify --source` adds to its
// default job (AddPageSizedBlockDevice).
TEST(LinuxRealCode, TakesTheCachedBioPathOnTheSourceJobsSecondDevice) {
  auto reached = [] {
    auto f = LinuxFunctionsReached();
    return std::find(f.begin(), f.end(), "block.c squashfs_bio_read_cached") !=
           f.end();
  };
  VerifyOptions opt;
  opt.variants = {"linux-6.12"};
  opt.decomps = {"single"};
  opt.workloads = {"dd2", "every"};
  opt.kernels = {"debug"};
  opt.budget = 3;
  auto explore = [&opt] {
    auto cells = MakeCells(opt);
    EXPECT_TRUE(cells.ok()) << cells.status().ToString();
    EXPECT_EQ(cells->size(), 1u);
    LinuxCoverageEnable(true);
    CellResult r = ExploreScenarios(cells->front().scenarios, opt, 0);
    LinuxCoverageEnable(false);
    EXPECT_FALSE(r.found) << r.minimised.report.ToString();
  };
  explore();
  EXPECT_FALSE(reached()) << "the RAM disk took the cached bio path";
  AddPageSizedBlockDevice(opt, /*named_workloads=*/false);
  EXPECT_EQ(opt.second_device, "nvme,bs=4096");
  explore();
  EXPECT_TRUE(reached());
}

TEST(LinuxRealCode, OracleCatchesAWrongByteOfTheRealCode) {
  ImageModel bad = *Image();
  for (auto& f : bad.files) f.content[f.content.size() / 2] ^= 1;
  auto img = std::make_shared<const ImageModel>(bad);
  VerifyOptions opt;
  opt.budget = 2;
  CellResult c = ExploreScenarios(
      Scenarios("linux-6.12", "single", {"dd"}, "", img), opt, 0);
  ASSERT_TRUE(c.found);
  EXPECT_EQ(c.failure.report.kind, ReportKind::kWrongData)
      << c.failure.report.ToString();
}

TEST(LinuxRealCode, SmallScenarioExhaustively) {
  VerifyOptions opt;
  opt.strategy = "exhaustive";
  opt.preemption_bound = 1;
  opt.budget = 200000;
  opt.minimise = false;
  CellResult c =
      ExploreScenarios(Scenarios("linux-6.12", "single", {"pair"}), opt, 0);
  EXPECT_FALSE(c.found) << c.failure.report.ToString();
  EXPECT_TRUE(c.exhausted) << c.runs << " runs";
  EXPECT_GT(c.runs, 1);
  std::printf("linux-6.12/single/pair bound 1: %ld runs (%ld pruned), %.1f s\n",
              c.runs, c.pruned, c.seconds);
}

TEST(LinuxRealCode, UnknownStrategyIsAClearError) {
  auto sc = MakeScenario(
      ScenarioSpec{"linux-6.12", "percpu-locallock", "dd", "", "", "", ""},
      Image());
  ASSERT_FALSE(sc.ok());
  EXPECT_NE(sc.status().ToString().find("single, multi and percpu"),
            std::string::npos);
}

}  // namespace
}  // namespace squashlab
