// This file implements the long race campaign (tagged manual; sharded by
// Bazel's protocol): every variant but async-2013 x every strategy over the
// default scenarios, SQUASHLAB_CAMPAIGN_RUNS schedules per cell per shard
// (default 1250: 10^5 schedules over 4 shards x 20 cells), each shard
// exploring its own seeds.
#include <gtest/gtest.h>

#include <cstdlib>

#include "model/shard.h"
#include "model/verify/verify.h"

namespace squashlab {
namespace {

TEST(Campaign, CorrectVariantsStayClean) {
  Shard shard = ShardFromEnv();
  const char* env = std::getenv("SQUASHLAB_CAMPAIGN_RUNS");
  VerifyOptions opt;
  opt.budget = env ? std::atol(env) : 1250;
  opt.seed = 1000003ULL * static_cast<uint64_t>(shard.index + 1);
  opt.variants = {"sync-3.13", "file-cache-3.13", "async-fixed", "readpages-cache",
                  "readahead-mainline"};
  auto r = RunVerify(opt, nullptr);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  long total = 0;
  for (const auto& c : r.value().cells) {
    total += c.runs;
    EXPECT_FALSE(c.found) << c.variant << " x " << c.decomp << "\n"
                          << FormatFailures(r.value());
  }
  std::printf("shard %d/%d: %ld schedules clean\n", shard.index, shard.total, total);
}

}  // namespace
}  // namespace squashlab
