// SPDX-License-Identifier: GPL-2.0-only
// This file implements the long race campaign (tagged manual): every
// variant but async-2013 x every strategy over the default scenarios, in 4
// parts with their own seeds (gtest's sharding gives each Bazel shard one),
// SQUASHLAB_CAMPAIGN_RUNS schedules per cell per part (default 25000: 10^5
// schedules per cell over the 4 parts, about 6 CPU minutes in all on this
// machine), optionally under a fault plan (SQUASHLAB_CAMPAIGN_FAULTS: eio,
// reada, bitflip) and on an hw_emul device (SQUASHLAB_CAMPAIGN_DEVICE, e.g.
// emmc-hs200); SQUASHLAB_CAMPAIGN_VARIANTS (comma-separated, e.g.
// linux-6.12,linux-6.1) replaces the variants. harness/README.md has the
// figures.
#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>
#include <string>

#include "harness/verify/verify.h"

namespace squashlab {
namespace {

void Part(int index) {
  const char* env = std::getenv("SQUASHLAB_CAMPAIGN_RUNS");
  VerifyOptions opt;
  opt.budget = env ? std::atol(env) : 25000;
  if (const char* f = std::getenv("SQUASHLAB_CAMPAIGN_FAULTS")) opt.faults = f;
  if (const char* d = std::getenv("SQUASHLAB_CAMPAIGN_DEVICE")) opt.device = d;
  opt.seed = 1000003ULL * static_cast<uint64_t>(index + 1);
  opt.variants = {"sync-3.13", "file-cache-3.13", "async-fixed",
                  "readpages-cache", "readahead-mainline"};
  if (const char* v = std::getenv("SQUASHLAB_CAMPAIGN_VARIANTS")) {
    opt.variants.clear();
    std::stringstream list(v);
    for (std::string name; std::getline(list, name, ',');)
      if (!name.empty()) opt.variants.push_back(name);
  }
  auto r = RunVerify(opt, nullptr);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  long total = 0;
  for (const auto& c : r.value().cells) {
    total += c.runs;
    EXPECT_FALSE(c.found) << c.variant << " x " << c.decomp << "\n"
                          << FormatFailures(r.value());
  }
  std::printf("part %d: %ld schedules clean\n", index, total);
}

TEST(Campaign, Part0) { Part(0); }
TEST(Campaign, Part1) { Part(1); }
TEST(Campaign, Part2) { Part(2); }
TEST(Campaign, Part3) { Part(3); }

}  // namespace
}  // namespace squashlab
