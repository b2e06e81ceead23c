// SPDX-License-Identifier: GPL-2.0-only
// This file implements the profile tests: every number has a source, the
// timing arithmetic is exact, the calibrations reproduce the seed figures
// they were derived from, and the timeline serialises or overlaps requests
// as the part does.
#include "hw_emul/profile.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>

namespace squashlab {
namespace {

const DeviceProfile& P(const char* name) {
  const DeviceProfile* p = FindProfile(name);
  EXPECT_NE(p, nullptr) << name;
  return *p;
}

TEST(Profile, AllFiveExistAndEveryNumberHasASource) {
  std::vector<std::string> names;
  for (const DeviceProfile& p : AllProfiles()) {
    names.push_back(p.name);
    for (const Sourced* s :
         {&p.command_overhead_ns, &p.bandwidth_bytes_per_s, &p.seek_ns,
          &p.rotation_ns, &p.max_request_bytes, &p.command_bytes,
          &p.queue_depth, &p.channels, &p.nr_requests}) {
      EXPECT_GT(std::strlen(s->source), 5u) << p.name;
    }
    EXPECT_GT(p.bandwidth_bytes_per_s.value, 0u) << p.name;
    EXPECT_GT(p.queue_depth.value, 0u) << p.name;
    EXPECT_GT(p.channels.value, 0u) << p.name;
    EXPECT_GE(p.max_request_bytes.value, p.command_bytes.value) << p.name;
  }
  EXPECT_EQ(names,
            (std::vector<std::string>{"emmc-hs200", "kvm-hdb", "usb-stick",
                                      "qspi-flash", "nvme"}));
  EXPECT_EQ(FindProfile("floppy"), nullptr);
}

TEST(Profile, ExactServiceTimes) {
  // overhead + ceil(bytes * 1e9 / bandwidth), plus seek + rotation when
  // not sequential, one overhead per command.
  EXPECT_EQ(ServiceNs(P("emmc-hs200"), 131072, true), 1413670u + 655360u);
  EXPECT_EQ(ServiceNs(P("kvm-hdb"), 131072, true), 3770122u);
  EXPECT_EQ(ServiceNs(P("kvm-hdb"), 131072, false), 16436789u);
  EXPECT_EQ(ServiceNs(P("kvm-hdb"), 230686, true),
            7386946u);  // two 128K commands
  EXPECT_EQ(ServiceNs(P("qspi-flash"), 4096, true),
            144800u);  // eight 512-byte reads
  EXPECT_EQ(ServiceNs(P("nvme"), 4096, true), 81205u);
  EXPECT_EQ(ServiceNs(P("usb-stick"), 32768, true), 9157209u);
  EXPECT_EQ(CommandCount(P("qspi-flash"), 513), 2u);
  EXPECT_EQ(CommandCount(P("emmc-hs200"), 1), 1u);
  EXPECT_EQ(TransferNs(P("emmc-hs200"), 1), 5u);  // rounds up
}

// seed 000: 459 async requests (fetch 918, two per request) moving
// 58,707,718 bytes took 0.942413 s, the device never waiting for the CPU.
TEST(Profile, EmmcReproducesChanhosAsyncDeviceTime) {
  const DeviceProfile& p = P("emmc-hs200");
  uint64_t total = 459 * p.command_overhead_ns.value + TransferNs(p, 58707718);
  EXPECT_NEAR(static_cast<double>(total), 0.942413e9, 1e3);
}

// seed 000, Phillip: "move to a 256K block filesystem, and gain a 74%
// performance boost": with gzip at 320 MB/s, one request per block and the
// 22% blocks (28,836 B and 57,672 B), 256K blocks run 1.74x the 128K rate.
TEST(Profile, KvmHdbGivesPhillips256KBoost) {
  const DeviceProfile& p = P("kvm-hdb");
  auto block_ns = [&](double kib, uint64_t stored) {
    return static_cast<double>(ServiceNs(p, stored, true)) +
           kib * 1024 / 320e6 * 1e9;
  };
  double rate128 = 128 / block_ns(128, 28836);
  double rate256 = 256 / block_ns(256, 57672);
  EXPECT_NEAR(rate256 / rate128, 1.74, 0.005);
}

// seed 000: Minchan's sweep, before the patch, in MiB/s; one request per
// dd call.
TEST(Profile, UsbStickReproducesTheBsSweepWithinAFewPercent) {
  const DeviceProfile& p = P("usb-stick");
  const struct {
    int kib;
    double mbs;
  } sweep[] = {{32, 3.6},   {64, 6.3},   {128, 11.4},
               {160, 13.6}, {256, 19.8}, {288, 21.3}};
  for (auto [kib, mbs] : sweep) {
    uint64_t bytes = kib * 1024ULL;
    double got =
        bytes * 1e9 / 1048576 / static_cast<double>(ServiceNs(p, bytes, true));
    EXPECT_NEAR(got, mbs, 0.06 * mbs) << kib << "K";
  }
}

// seed 000, 1024K table: 1 MiB at 98.33 MB/s = 10.664 ms per block, of
// which gzip at 320 MB/s takes 3.277 ms; the device the rest.
TEST(Profile, KvmHdbLeavesTheGzipTimeOfAOneMegabyteBlock) {
  uint64_t device = ServiceNs(P("kvm-hdb"), 230686, true);
  double block_ns = 1048576 / 98.33e6 * 1e9;
  double gzip_ns = 1048576 / 320e6 * 1e9;
  EXPECT_NEAR(static_cast<double>(device), block_ns - gzip_ns,
              0.001 * block_ns);
}

TEST(Timeline, OneChannelRunsRequestsBackToBack) {
  const DeviceProfile& p = P("emmc-hs200");
  DeviceTimeline t(p);
  auto a = t.Schedule(1000, 0, 65536);
  auto b = t.Schedule(1000, 128, 65536);  // issued while a runs
  EXPECT_EQ(a.start_ns, 1000u);
  EXPECT_EQ(a.end_ns, 1000 + ServiceNs(p, 65536, true));
  EXPECT_EQ(b.start_ns, a.end_ns);
  EXPECT_EQ(b.end_ns, a.end_ns + ServiceNs(p, 65536, true));
  auto c = t.Schedule(b.end_ns + 500, 256, 512);  // the device was idle
  EXPECT_EQ(c.start_ns, b.end_ns + 500);
  EXPECT_EQ(t.busy_ns(),
            2 * ServiceNs(p, 65536, true) + ServiceNs(p, 512, true));
}

TEST(Timeline, NvmeOverlapsAccessAndSerialisesTransfers) {
  const DeviceProfile& p = P("nvme");
  DeviceTimeline t(p);
  auto a = t.Schedule(0, 0, 131072);
  auto b = t.Schedule(0, 1 << 20, 131072);
  EXPECT_EQ(a.end_ns, ServiceNs(p, 131072, true));
  EXPECT_EQ(b.start_ns, 0u);  // a second channel
  EXPECT_EQ(b.end_ns, a.end_ns + TransferNs(p, 131072));
}

TEST(Timeline, DiskSeeksOnlyWhenNotSequential) {
  const DeviceProfile& p = P("kvm-hdb");
  DeviceTimeline t(p);
  auto a = t.Schedule(0, 0, 131072);
  auto b = t.Schedule(a.end_ns, 256, 131072);       // right after a
  auto c = t.Schedule(b.end_ns, 10000000, 131072);  // far away
  EXPECT_TRUE(a.sequential);
  EXPECT_TRUE(b.sequential);
  EXPECT_FALSE(c.sequential);
  EXPECT_EQ(b.end_ns - b.start_ns, ServiceNs(p, 131072, true));
  EXPECT_EQ(c.end_ns - c.start_ns,
            ServiceNs(p, 131072, true) + p.seek_ns.value + p.rotation_ns.value);
}

TEST(Timeline, AReservationHoldsEveryChannelAfterTheWorkStarted) {
  const DeviceProfile& p = P("nvme");
  DeviceTimeline t(p);
  auto a = t.Schedule(0, 0, 131072);
  auto r = t.Reserve(10, 5000000);  // issued while a runs
  EXPECT_EQ(r.start_ns, a.end_ns);
  EXPECT_EQ(r.end_ns, a.end_ns + 5000000);
  auto b = t.Schedule(20, 1 << 20, 131072);  // any channel: after it
  EXPECT_EQ(b.start_ns, r.end_ns);
  EXPECT_EQ(t.busy_ns(), 2 * ServiceNs(p, 131072, true) + 5000000);
  auto idle = t.Reserve(b.end_ns + 700, 100);  // an idle device: at once
  EXPECT_EQ(idle.start_ns, b.end_ns + 700);
}

}  // namespace
}  // namespace squashlab
