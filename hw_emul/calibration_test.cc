// SPDX-License-Identifier: GPL-2.0-only
// This file implements the end-to-end calibration checks in simulate mode:
// the emulated eMMC, host task and interrupts included, reproduces the
// device side of Chanho's dd figures (the 2013 thread), and adds under 1% of
// emulation overhead to the profile's arithmetic.
#include <gtest/gtest.h>

#include "hw_emul/block_device.h"
#include "hw_emul/testing/device_rig.h"

namespace squashlab {
namespace {

using hwtest::Io;
using hwtest::Ios;

DeviceOptions Emmc() {
  DeviceOptions o;
  o.profile = "emmc-hs200";
  o.block_size = 512;
  return o;
}

// Async: 459 requests queued ahead, the device never waits for the CPU:
// 58,707,718 B in 0.942413 s = 62.30 MB/s (dd's 59.4 MiB/s). Requests of 250
// sectors (the seed's 127,903 B rounded up to whole sectors), one sector
// apart so that they do not merge.
TEST(Calibration, EmmcQueuedStreamRunsAtTheAsyncDeviceRate) {
  const int n = 459;
  const unsigned bytes = 250 * 512;
  BlockDevice dev(hwtest::PatternImage(uint64_t{n} * 251 * 512), Emmc());
  Ios ios;
  std::vector<Io*> all;
  for (int i = 0; i < n; i++) all.push_back(ios.Make(uint64_t{251} * i, bytes));
  uint64_t end = 0;
  auto out = hwtest::RunSimulate(hwtest::DdScenario([&] {
    blk_plug plug;
    blk_start_plug(&plug);
    for (Io* io : all) hwtest::Submit(&dev, io);
    blk_finish_plug(&plug);
    for (Io* io : all) hwtest::Wait(io);
    end = Kernel::Current().NowNs();
  }));
  ASSERT_TRUE(out.ok()) << out.report.ToString();
  DeviceCounters c = dev.counters();
  EXPECT_EQ(c.requests, uint64_t{n});
  EXPECT_EQ(c.fetch, uint64_t{n + 1});
  EXPECT_EQ(c.idle, 1u);
  double arithmetic =
      n * static_cast<double>(ServiceNs(dev.profile(), bytes, true));
  EXPECT_NEAR(end, arithmetic, 0.01 * arithmetic);
  double mbs = n * double{bytes} * 1e3 / end;
  EXPECT_NEAR(mbs, 58707718 / 0.942413 / 1e6, 0.01 * 62.3);
}

// Sync: 460 requests of one 128K block each, the reader waiting for each
// and then spending the CPU time the profile derivation leaves (0.979 ms
// per block) before the next: 1.393653 s in the seed.
TEST(Calibration, EmmcSynchronousStreamTakesTheSyncTime) {
  const int n = 460;
  const unsigned bytes =
      249 * 512;  // 127,488 B: the seed's 127,625 B in sectors
  const uint64_t cpu_ns = 978570;
  BlockDevice dev(hwtest::PatternImage(uint64_t{n} * 249 * 512), Emmc());
  Ios ios;
  uint64_t end = 0;
  auto out = hwtest::RunSimulate(hwtest::DdScenario([&] {
    for (int i = 0; i < n; i++) {
      Io* io = ios.Make(uint64_t{249} * i, bytes);
      hwtest::Submit(&dev, io);
      hwtest::Wait(io);
      model_charge(CostKind::kCompute, cpu_ns);
    }
    end = Kernel::Current().NowNs();
  }));
  ASSERT_TRUE(out.ok()) << out.report.ToString();
  EXPECT_EQ(dev.counters().fetch, uint64_t{2 * n});  // the seed's 920 / 460
  EXPECT_EQ(dev.counters().idle, uint64_t{n});
  EXPECT_NEAR(end, 1.393653e9, 0.01 * 1.393653e9);
  // dd's "40.2MB/s" is MiB/s (58707718 B / 2^20 / 1.393653 s).
  double mibs = n * double{bytes} * 1e9 / 1048576 / end;
  EXPECT_NEAR(mibs, 40.2, 0.4);
}

}  // namespace
}  // namespace squashlab
