// This file implements the seeds/004 experiment as a test: on an RT kernel
// with QSPI-flash-like request latency and a slow core, a cyclictest task
// per CPU beside dd readers of a 128K-block gzip image sees the whole
// block's decompression as wake-up latency with the percpu strategy
// (get_cpu_ptr), and at most about one page of inflate output with the
// RT local lock; sleeping inside a percpu section is reported.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

#include "model/verify/rt_latency.h"
#include "model/verify/scenarios.h"

namespace squashlab {
namespace {

std::shared_ptr<const ImageModel> Tree128k() {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  auto img = LoadImage(std::string(srcdir ? srcdir : ".") + "/squashlab/testdata/tree_gzip.sqfs");
  EXPECT_TRUE(img.ok()) << img.status().ToString();
  return img.value();
}

TEST(RtLatency, PercpuIsLongLocallockIsShort) {
  auto img = Tree128k();
  RtLatencyOptions opt;
  uint64_t worst[4] = {};
  const char* names[4] = {"single", "multi", "percpu", "percpu-locallock"};
  for (int i = 0; i < 4; i++) {
    opt.decomp = names[i];
    RtLatencyResult r = RunRtLatency(img, opt);
    EXPECT_TRUE(r.report.empty()) << names[i] << ": " << r.report.ToString();
    EXPECT_GT(r.wakeups, 10u);
    worst[i] = r.max_wakeup_latency_ns;
    std::printf("%-17s worst cyclictest wake-up latency %8.1f us (%lu wake-ups, %.1f ms)\n",
                names[i], worst[i] / 1e3, static_cast<unsigned long>(r.wakeups), r.end_ns / 1e6);
  }
  // percpu: a 128K block at 60 ns/byte is ~7.9 ms without preemption.
  EXPECT_GT(worst[2], 5000000u);
  // local lock: preemptible between pages (4K x 60 ns = 246 us).
  EXPECT_LT(worst[3], 1000000u);
  EXPECT_LT(worst[3] * 10, worst[2]);
}

}  // namespace
}  // namespace squashlab
