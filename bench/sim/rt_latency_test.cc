// SPDX-License-Identifier: GPL-2.0-only
// This file implements the the 2018 RT thread experiment as a test: on an RT
// kernel, readers of a 128K-block image on the qspi-flash device, and a
// cyclictest task per CPU, with the decompression cost of an embedded core
// derived from this machine's codec cost (not fitted to the seed). With the
// percpu strategy (get_cpu_ptr) the waker sees a whole block's decompression;
// with the RT local lock none of it (preemptible anywhere); sleeping
// inside a percpu section is reported as scheduling while atomic, in
// explore and in simulate mode.
#include "bench/sim/rt_latency.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

#include "harness/explore_once.h"
#include "harness/mount.h"
#include "harness/scenario_builder.h"
#include "harness/scenario_spec.h"
#include "harness/sleepy_decompressor.h"
#include "harness/workloads.h"

namespace squashlab {
namespace {

std::shared_ptr<const ImageModel> Tree128k(const std::string& codec) {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  auto img = LoadImage(std::string(srcdir ? srcdir : ".") +
                       "/squashlab/testdata/tree_" + codec + ".sqfs");
  EXPECT_TRUE(img.ok()) << img.status().ToString();
  return img.value();
}

// The longest non-preemptible stretch the mechanism allows: a block's
// decompression (percpu) or a page of it (anything preemptible on RT).
void ExpectSeedShape(const std::string& codec) {
  auto img = Tree128k(codec);
  ASSERT_EQ(img->block_size, 131072u);
  RtLatencyOptions opt;
  const char* names[4] = {"single", "multi", "percpu", "percpu-locallock"};
  uint64_t worst[4] = {};
  double per_byte = 0;
  for (int i = 0; i < 4; i++) {
    opt.decomp = names[i];
    RtLatencyResult r = RunRtLatency(img, opt);
    EXPECT_TRUE(r.report.empty()) << names[i] << ": " << r.report.ToString();
    EXPECT_GT(r.wakeups, 10u);
    uint64_t in_histogram = 0;
    for (uint64_t n : r.histogram) in_histogram += n;
    EXPECT_EQ(in_histogram, r.wakeups);
    EXPECT_EQ((r.histogram.size() - 1) * r.bucket_ns,
              r.max_wakeup_latency_ns / r.bucket_ns * r.bucket_ns);
    worst[i] = r.max_wakeup_latency_ns;
    per_byte = r.decompress_ns_per_byte;
    std::printf(
        "%-5s %-17s worst wake-up latency %8.1f us (%lu wake-ups, %.1f ms, "
        "%.1f ns/B)\n",
        codec.c_str(), names[i], worst[i] / 1e3,
        static_cast<unsigned long>(r.wakeups), r.end_ns / 1e6, per_byte);
  }
  const double block_ns = 131072 * per_byte, page_ns = 4096 * per_byte;
  // percpu: a whole block without preemption, nearly all of it seen.
  EXPECT_GT(static_cast<double>(worst[2]), 0.7 * block_ns);
  EXPECT_LT(static_cast<double>(worst[2]), 1.2 * block_ns + 200000);
  // Preemptible on RT (kmap_atomic only disables migration there, and the
  // inflate is preemptible anywhere): the waker sees no part of the
  // decompression, not even a page of it; what is left is scheduling
  // overhead, the same for every codec.
  for (int i : {0, 1, 3}) {
    EXPECT_LT(static_cast<double>(worst[i]), 0.5 * page_ns) << names[i];
    EXPECT_LT(worst[i], 20000u) << names[i];
  }
  EXPECT_LT(worst[3] * 100, worst[2]);
}

TEST(RtLatency, PercpuIsLongLocallockIsShortGzip) { ExpectSeedShape("gzip"); }
TEST(RtLatency, PercpuIsLongLocallockIsShortXz) { ExpectSeedShape("xz"); }

TEST(RtLatency, CostIsTheHostCodecScaledByTheCpuRatio) {
  EXPECT_DOUBLE_EQ(HostDecompressNsPerByte("gzip") * kEmbeddedCpuRatio,
                   1000.0 / 77.0);
  EXPECT_DOUBLE_EQ(HostDecompressNsPerByte("xz"), 1000.0 / 60.0);
}

// A strategy that takes a sleeping lock inside its per-CPU section (what a
// careless port of the percpu decompressor would do).
TEST(RtLatency, SleepingInsideAPercpuSectionIsReported) {
  auto img = DefaultImage();
  ASSERT_TRUE(img.ok());
  std::shared_ptr<const ImageModel> image = img.value();
  const FileModel* f = &image->files.front();
  auto sc = ScenarioBuilder(image)
                .Name("sleepy")
                .ReadPath("sync-3.13", "percpu")
                .Decompressor(SleepyPercpuDecompressor())
                .Workload([f](Kernel& k, SquashfsMount* m, BlockDevice*) {
                  spawn_dd(k, m->Find(f->name), f, ReaderOptions{});
                })
                .Build();
  ASSERT_TRUE(sc.ok()) << sc.status().ToString();
  RunResult r = ExploreOnce(*sc, "random", 1);
  // A debug kernel's might_sleep, on the first schedule (uncontended or not).
  EXPECT_EQ(r.report.kind, ReportKind::kSleepInvalidContext)
      << r.report.ToString();
}

TEST(RtLatency, SleepingInsideAPercpuSectionIsReportedInSimulate) {
  RtLatencyOptions opt;
  opt.decomp_ops = SleepyPercpuDecompressor();
  RtLatencyResult r = RunRtLatency(Tree128k("gzip"), opt);
  EXPECT_EQ(r.report.kind, ReportKind::kSleepInvalidContext)
      << r.report.ToString();
  EXPECT_NE(r.report.title.find("sleeping function called from invalid"),
            std::string::npos)
      << r.report.title;
  // The same strategy without the sleeping lock is clean.
  opt.decomp_ops = nullptr;
  opt.decomp = "percpu";
  EXPECT_TRUE(RunRtLatency(Tree128k("gzip"), opt).report.empty());
}

}  // namespace
}  // namespace squashlab
