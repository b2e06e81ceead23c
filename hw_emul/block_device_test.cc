// SPDX-License-Identifier: GPL-2.0-only
// This file implements the device tests in simulate mode: exact service
// times per request, the host controller's fetch/idle counts for a
// synchronous and a queued stream (the evidence of the 2013 thread), plugging
// and merging, block sizes, and each fault of a plan.
#include "hw_emul/block_device.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "hw_emul/testing/device_rig.h"

namespace squashlab {
namespace {

using hwtest::DataMatches;
using hwtest::DdScenario;
using hwtest::Io;
using hwtest::Ios;
using hwtest::RunSimulate;
using hwtest::Submit;
using hwtest::Wait;

constexpr uint64_t kImage = 4 << 20;

DeviceOptions Opts(const char* profile, const char* faults = "",
                   unsigned bs = 1024) {
  DeviceOptions o;
  o.profile = profile;
  o.block_size = bs;
  o.faults = *FaultPlan::Parse(faults);
  o.record_log = true;
  return o;
}

// Submits every io under one plug, then waits for all.
void PluggedBatch(BlockDevice* dev, const std::vector<Io*>& ios) {
  blk_plug plug;
  blk_start_plug(&plug);
  for (Io* io : ios) Submit(dev, io);
  blk_finish_plug(&plug);
  for (Io* io : ios) Wait(io);
}

void ExpectAllOnceInIrq(Ios& ios) {
  for (Io& io : ios.all()) {
    EXPECT_EQ(io.completions.load(), 1) << "sector " << io.sector;
    EXPECT_TRUE(io.in_irq) << "sector " << io.sector;
  }
}

TEST(Device, OneReadTakesExactlyItsServiceTime) {
  for (const DeviceProfile& p : AllProfiles()) {
    BlockDevice dev(hwtest::PatternImage(kImage), Opts(p.name));
    Ios ios;
    Io* io = ios.Make(8, 4096);
    auto out = RunSimulate(DdScenario([&] {
      Submit(&dev, io);
      Wait(io);
    }));
    ASSERT_TRUE(out.ok()) << p.name << "\n" << out.report.ToString();
    ExpectAllOnceInIrq(ios);
    EXPECT_EQ(io->error, 0);
    EXPECT_TRUE(DataMatches(*io));
    auto log = dev.log();
    ASSERT_EQ(log.size(), 1u) << p.name;
    EXPECT_EQ(log[0].start_ns, log[0].dispatch_ns)
        << p.name;  // the device was idle
    EXPECT_EQ(log[0].end_ns - log[0].start_ns, ServiceNs(p, 4096, true))
        << p.name;
    EXPECT_EQ(log[0].irq_ns, log[0].end_ns);
    // The waiter learns of it after the interrupt, within the CPU costs.
    EXPECT_GE(io->done_ns, log[0].irq_ns);
    EXPECT_LT(io->done_ns, log[0].irq_ns + 20000);
    // The host task woke: a context switch and its first scheduling point.
    EXPECT_EQ(log[0].dispatch_ns - log[0].queued_ns, 2050u) << p.name;
  }
}

// the 2013 thread: one synchronous request at a time costs mmcqd two fetch
// iterations and one idle (920/460); a queued stream costs one fetch per
// request plus one, and one idle (918/40 over 40 bursts).
TEST(Device, HostFetchIdleCountsReproduceTheSeedPattern) {
  const int n = 10;
  BlockDevice sync_dev(hwtest::PatternImage(kImage), Opts("emmc-hs200"));
  Ios a;
  auto out = RunSimulate(DdScenario([&] {
    for (int i = 0; i < n; i++) {
      Io* io = a.Make(i * 256, 65536);
      Submit(&sync_dev, io);
      Wait(io);
    }
  }));
  ASSERT_TRUE(out.ok()) << out.report.ToString();
  DeviceCounters c = sync_dev.counters();
  EXPECT_EQ(c.requests, uint64_t{n});
  EXPECT_EQ(c.fetch, uint64_t{2 * n});
  EXPECT_EQ(c.idle, uint64_t{n});

  BlockDevice async_dev(hwtest::PatternImage(kImage), Opts("emmc-hs200"));
  Ios b;
  std::vector<Io*> batch;
  for (int i = 0; i < n; i++)
    batch.push_back(b.Make(i * 256, 65536));  // gaps: no merging
  out = RunSimulate(DdScenario([&] { PluggedBatch(&async_dev, batch); }));
  ASSERT_TRUE(out.ok()) << out.report.ToString();
  c = async_dev.counters();
  EXPECT_EQ(c.requests, uint64_t{n});
  EXPECT_EQ(c.fetch, uint64_t{n + 1});
  EXPECT_EQ(c.idle, 1u);
  EXPECT_EQ(c.depth_hist, (std::vector<uint64_t>{0, 1, n - 1}));
  // Back to back on the one channel: no idle gap between commands.
  auto log = async_dev.log();
  for (size_t i = 1; i < log.size(); i++)
    EXPECT_EQ(log[i].start_ns, log[i - 1].end_ns);
  EXPECT_EQ(c.busy_ns, log.back().end_ns - log.front().start_ns);
  ExpectAllOnceInIrq(b);
}

TEST(Device, PlugMergesAdjacentBiosIntoOneRequest) {
  BlockDevice dev(hwtest::PatternImage(kImage), Opts("emmc-hs200"));
  Ios ios;
  std::vector<Io*> batch;
  for (int i = 0; i < 8; i++) batch.push_back(ios.Make(64 + i * 8, 4096));
  std::swap(batch[2], batch[5]);  // out of order: front merges too
  auto out = RunSimulate(DdScenario([&] { PluggedBatch(&dev, batch); }));
  ASSERT_TRUE(out.ok()) << out.report.ToString();
  DeviceCounters c = dev.counters();
  EXPECT_EQ(c.bios_plugged, 8u);
  EXPECT_EQ(c.requests, 1u);
  EXPECT_EQ(c.merges + c.request_merges, 7u);
  EXPECT_EQ(c.bytes, 8 * 4096u);
  ASSERT_EQ(dev.log().size(), 1u);
  EXPECT_EQ(dev.log()[0].sector, 64u);
  EXPECT_EQ(dev.log()[0].nbios, 8u);
  for (Io& io : ios.all()) EXPECT_TRUE(DataMatches(io));
  ExpectAllOnceInIrq(ios);
}

TEST(Device, WithoutAPlugWaitedBiosDoNotMerge) {
  BlockDevice dev(hwtest::PatternImage(kImage), Opts("emmc-hs200"));
  Ios ios;
  auto out = RunSimulate(DdScenario([&] {
    for (int i = 0; i < 8; i++) {
      Io* io = ios.Make(64 + i * 8, 4096);
      Submit(&dev, io);
      Wait(io);
    }
  }));
  ASSERT_TRUE(out.ok()) << out.report.ToString();
  EXPECT_EQ(dev.counters().requests, 8u);
  EXPECT_EQ(dev.counters().merges, 0u);
  EXPECT_EQ(dev.counters().bios_plugged, 0u);
}

TEST(Device, NestedPlugIsFlushedByTheOuterFinishOnly) {
  BlockDevice dev(hwtest::PatternImage(kImage), Opts("emmc-hs200"));
  Ios ios;
  uint64_t queued_after_inner = 99;
  auto out = RunSimulate(DdScenario([&] {
    blk_plug outer, inner;
    blk_start_plug(&outer);
    Submit(&dev, ios.Make(0, 4096));
    blk_start_plug(&inner);
    Submit(&dev, ios.Make(8, 4096));
    blk_finish_plug(&inner);
    queued_after_inner = dev.counters().requests + dev.counters().max_queued;
    blk_finish_plug(&outer);
    for (Io& io : ios.all()) Wait(&io);
  }));
  ASSERT_TRUE(out.ok()) << out.report.ToString();
  EXPECT_EQ(queued_after_inner, 0u);
  EXPECT_EQ(dev.counters().requests, 1u);
  EXPECT_EQ(dev.counters().bios_plugged, 2u);
}

TEST(Device, RequestsStopGrowingAtTheProfileLimit) {
  BlockDevice dev(hwtest::PatternImage(kImage), Opts("emmc-hs200"));  // 512 KiB
  Ios ios;
  std::vector<Io*> batch;
  for (int i = 0; i < 160; i++)
    batch.push_back(ios.Make(i * 8, 4096));  // 640 KiB
  auto out = RunSimulate(DdScenario([&] { PluggedBatch(&dev, batch); }));
  ASSERT_TRUE(out.ok()) << out.report.ToString();
  auto log = dev.log();
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(log[0].bytes, 524288u);
  EXPECT_EQ(log[1].bytes, 131072u);
}

TEST(Device, BlockSizeAlignmentAndCapacity) {
  // 10000 bytes: 20 sectors at 512, 24 at 4096 (the tail reads as zeros).
  auto image = hwtest::PatternImage(10000);
  BlockDevice small(image, Opts("nvme", "", 512));
  BlockDevice big(image, Opts("nvme", "", 4096));
  EXPECT_EQ(small.capacity_sectors(), 20u);
  EXPECT_EQ(big.capacity_sectors(), 24u);
  EXPECT_EQ(big.bdev()->logical_block_size, 4096u);
  Ios ios;
  Io* odd_small = ios.Make(1, 512);
  Io* odd_big = ios.Make(1, 512);
  Io* tail = ios.Make(16, 4096);
  Io* past = ios.Make(24, 4096);
  Io* write = ios.Make(0, 4096, WRITE);
  auto out = RunSimulate(DdScenario([&] {
    for (auto [dev, io] :
         std::vector<std::pair<BlockDevice*, Io*>>{{&small, odd_small},
                                                   {&big, odd_big},
                                                   {&big, tail},
                                                   {&big, past},
                                                   {&big, write}}) {
      Submit(dev, io);
      Wait(io);
    }
  }));
  ASSERT_TRUE(out.ok()) << out.report.ToString();
  EXPECT_EQ(odd_small->error, 0);
  EXPECT_TRUE(DataMatches(*odd_small));
  EXPECT_EQ(odd_big->error, -EIO);
  EXPECT_EQ(tail->error, 0);
  for (unsigned i = 0; i < 4096; i++) {
    uint64_t off = 16 * 512 + i;
    uint8_t want = off < 10000 ? hwtest::PatternByte(off) : 0;
    ASSERT_EQ(static_cast<uint8_t>(tail->buf[i]), want) << i;
  }
  EXPECT_EQ(past->error, -EIO);
  EXPECT_EQ(write->error, -EIO);
  EXPECT_EQ(big.counters().bios_rejected, 3u);
  ExpectAllOnceInIrq(ios);
}

TEST(Device, APlugLeftWithoutFinishIsFlushedWhenItGoesOutOfScope) {
  DeviceOptions o = Opts("emmc-hs200");
  o.unplug_timeout_ns = 0;  // only the destructor can flush it
  BlockDevice dev(hwtest::PatternImage(kImage), o);
  Ios ios;
  Io* io = ios.Make(0, 4096);
  auto out = RunSimulate(DdScenario([&] {
    {
      blk_plug plug;
      blk_start_plug(&plug);
      Submit(&dev, io);
    }  // no blk_finish_plug
    EXPECT_EQ(current_plug(), nullptr);
    Wait(io);
  }));
  ASSERT_TRUE(out.ok()) << out.report.ToString();
  EXPECT_EQ(io->completions.load(), 1);
  EXPECT_EQ(dev.counters().requests, 1u);
}

TEST(Device, OptionsFromStrings) {
  auto o = MakeDeviceOptions("kvm-hdb", "eio=0.5;seed=3", 4096);
  ASSERT_TRUE(o.ok()) << o.status().ToString();
  EXPECT_EQ(o->profile, "kvm-hdb");
  EXPECT_EQ(o->block_size, 4096u);
  EXPECT_EQ(o->faults.ToString(), "eio=0.5;seed=3");
  EXPECT_FALSE(MakeDeviceOptions("floppy", "").ok());
  EXPECT_FALSE(MakeDeviceOptions("nvme", "eio=7").ok());
  EXPECT_FALSE(MakeDeviceOptions("nvme", "", 2048).ok());
}

// model/ does not flush a plug when its task sleeps yet; the unplug timer
// does, after unplug_timeout_ns. Without it the sleeper hangs.
// schedule() flushes a sleeper's plug: the bio reaches the queue the moment
// its submitter sleeps on it, with or without the unplug timer.
TEST(Device, SleepFlushesThePlugOfASleeper) {
  for (uint64_t timeout : {uint64_t{3000000}, uint64_t{0}}) {
    DeviceOptions o = Opts("emmc-hs200");
    o.unplug_timeout_ns = timeout;
    BlockDevice dev(hwtest::PatternImage(kImage), o);
    Ios ios;
    Io* io = ios.Make(0, 4096);
    uint64_t submitted = 0;
    auto out = RunSimulate(DdScenario([&] {
      blk_plug plug;
      blk_start_plug(&plug);
      submitted = Kernel::Current().NowNs();
      Submit(&dev, io);
      Wait(io);  // asleep with the bio still plugged: the sleep submits it
      blk_finish_plug(&plug);
    }));
    ASSERT_TRUE(out.ok()) << out.report.ToString();
    EXPECT_EQ(io->completions.load(), 1);
    EXPECT_EQ(dev.counters().bios_plugged, 1u);
    EXPECT_EQ(dev.counters().unplug_timer_bios, 0u);
    ASSERT_EQ(dev.log().size(), 1u);
    EXPECT_LT(dev.log()[0].queued_ns, submitted + 10000);
  }
}

// The optional unplug timer (pre-2.6.39's unplug_delay) flushes the plug
// of a task that keeps running without sleeping; without it the bio waits
// for blk_finish_plug.
TEST(Device, UnplugTimerFlushesThePlugOfABusyTask) {
  constexpr uint64_t kBusy = 5000000;
  for (uint64_t timeout : {uint64_t{3000000}, uint64_t{0}}) {
    DeviceOptions o = Opts("emmc-hs200");
    o.unplug_timeout_ns = timeout;
    BlockDevice dev(hwtest::PatternImage(kImage), o);
    Ios ios;
    Io* io = ios.Make(0, 4096);
    uint64_t submitted = 0;
    auto out = RunSimulate(DdScenario([&] {
      blk_plug plug;
      blk_start_plug(&plug);
      submitted = Kernel::Current().NowNs();
      Submit(&dev, io);
      Kernel::Current().Delay(kBusy);  // CPU work, no sleep
      blk_finish_plug(&plug);
      Wait(io);
    }));
    ASSERT_TRUE(out.ok()) << out.report.ToString();
    EXPECT_EQ(io->completions.load(), 1);
    ASSERT_EQ(dev.log().size(), 1u);
    const uint64_t flushed = timeout ? timeout : kBusy;
    EXPECT_EQ(dev.counters().unplug_timer_bios, timeout ? 1u : 0u);
    EXPECT_GE(dev.log()[0].queued_ns, submitted + flushed);
    EXPECT_LT(dev.log()[0].queued_ns, submitted + flushed + 10000);
  }
}

}  // namespace
}  // namespace squashlab
