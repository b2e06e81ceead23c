// This file implements the seeds/004 experiment as a test: on an RT kernel
// with QSPI-flash-like request latency and a slow core, a cyclictest task
// per CPU beside dd readers of a 128K-block gzip image sees the whole
// block's decompression as wake-up latency with the percpu strategy
// (get_cpu_ptr), and at most about one page of inflate output with the
// RT local lock; sleeping inside a percpu section is reported.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

#include "model/explorer.h"
#include "model/mm/workloads.h"
#include "model/mutex.h"
#include "model/preempt.h"
#include "model/variants/decompressor.h"
#include "model/variants/mount.h"
#include "model/variants/read_path.h"
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

// A strategy that takes a sleeping lock inside its per-CPU section (what a
// careless port of the percpu decompressor would do).
struct SleepyState {
  percpu<CodecStream*>* streams = nullptr;
  mutex mtx;
};
void sleepy_create(squashfs_sb_info* msblk) {
  auto* st = Kernel::Current().New<SleepyState>();
  st->streams = alloc_percpu<CodecStream*>();
  for (auto& s : st->streams->slots) s = squashfs_stream_init(msblk);
  mutex_init(&st->mtx);
  msblk->stream = st;
}
int sleepy_decompress(squashfs_sb_info* msblk, buffer_head** bh, int b, int offset, int length,
                      squashfs_page_actor* output) {
  auto* st = static_cast<SleepyState*>(msblk->stream);
  CodecStream** s = get_cpu_ptr(st->streams);
  mutex_lock(&st->mtx);
  int res = squashfs_codec_uncompress(msblk, *s, bh, b, offset, length, output);
  mutex_unlock(&st->mtx);
  put_cpu_ptr(s);
  return res;
}
int sleepy_max() { return 1; }
const SquashfsDecompressorOps kSleepy = {"percpu-sleepy", "", sleepy_create, sleepy_decompress,
                                         sleepy_max};

TEST(RtLatency, SleepingInsideAPercpuSectionIsReported) {
  auto img = DefaultImage();
  ASSERT_TRUE(img.ok());
  std::shared_ptr<const ImageModel> image = img.value();
  Scenario sc{"sleepy", KernelConfig{}, [image](Kernel& k) {
    SquashfsMount* m = squashfs_mount(k, *image, FindReadPath("sync-3.13"), &kSleepy);
    const FileModel* f = &image->files.front();
    spawn_dd(k, m->Find(f->name), f, ReaderOptions{});
  }};
  Explorer e;
  auto st = MakeRandomStrategy();
  RunResult r = e.RunOnce(sc, *st, 1, false);
  EXPECT_EQ(r.report.kind, ReportKind::kSchedulingWhileAtomic) << r.report.ToString();
}

}  // namespace
}  // namespace squashlab
