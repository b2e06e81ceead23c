// SPDX-License-Identifier: GPL-2.0-only
// This file implements the tests of BytesStrategy: each byte picks relative
// to the current task, zero and exhausted input are non-preemptive, and on a
// planted lost update one nonzero byte (one preemption) is enough to find
// the bug, which the recorded choices then replay exactly.
#include "model/sched/bytes_strategy.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "model/kernel/testing/planted.h"
#include "model/sched/explorer.h"

namespace squashlab {
namespace {

TEST(BytesStrategy, ZeroKeepsTheCurrentTaskOtherBytesCountOnFromIt) {
  std::vector<uint8_t> bytes = {0, 1, 2, 3, 0};
  BytesStrategy s(bytes);
  s.BeginRun(1);
  const std::vector<int> enabled = {2, 5, 7};
  EXPECT_EQ(s.Pick(enabled, 5, true, 0), 5);  // 0: stay
  EXPECT_EQ(s.Pick(enabled, 5, true, 1), 7);  // 1: the next one
  EXPECT_EQ(s.Pick(enabled, 5, true, 2), 2);  // 2: wraps around
  EXPECT_EQ(s.Pick(enabled, 5, true, 3), 5);  // 3 == size: back to current
  // The current task is blocked: count from the lowest id.
  EXPECT_EQ(s.Pick(enabled, 4, false, 4), 2);
  EXPECT_EQ(s.consumed(), 5u);
}

TEST(BytesStrategy, ExhaustedBytesAreNonPreemptiveAndEachRunStartsOver) {
  std::vector<uint8_t> bytes = {1};
  BytesStrategy s(bytes);
  const std::vector<int> enabled = {0, 1};
  for (int run = 0; run < 2; run++) {
    s.BeginRun(static_cast<uint64_t>(run));
    EXPECT_EQ(s.Pick(enabled, 0, true, 0), 1);
    EXPECT_EQ(s.Pick(enabled, 1, true, 1), 1);  // out of bytes: keep current
    EXPECT_EQ(s.Pick(enabled, 1, false, 2),
              0);  // out of bytes, blocked: lowest
    EXPECT_EQ(s.consumed(), 1u);
  }
}

RunResult RunBytes(const Scenario& sc, const std::vector<uint8_t>& bytes) {
  Explorer e;
  BytesStrategy s(bytes);
  return e.RunOnce(sc, s, 1, false);
}

TEST(BytesStrategy, NoBytesNeverPreemptsSoTheLostUpdateStaysHidden) {
  Scenario sc = testing::LostUpdate(false);
  EXPECT_FALSE(RunBytes(sc, {}).failed());
  EXPECT_FALSE(RunBytes(sc, std::vector<uint8_t>(64, 0)).failed());
}

TEST(BytesStrategy, OneNonzeroByteFindsTheLostUpdateAndItsChoicesReplay) {
  Scenario sc = testing::LostUpdate(false);
  Scenario twin = testing::LostUpdate(true);
  int found = 0;
  for (size_t at = 0; at < 16; at++) {
    std::vector<uint8_t> bytes(at + 1, 0);
    bytes[at] = 1;
    EXPECT_FALSE(RunBytes(twin, bytes).failed()) << "byte " << at;
    RunResult r = RunBytes(sc, bytes);
    if (!r.failed()) continue;
    found++;
    EXPECT_EQ(r.report.kind, ReportKind::kAssertion);
    EXPECT_EQ(r.preemptions, 1);
    Explorer e;
    RunResult again = e.Replay(sc, r.Token(sc.name), false);
    EXPECT_TRUE(again.report.SameAs(r.report));
    EXPECT_FALSE(again.diverged);
  }
  // The read-to-write window of either task: a preemption there loses an
  // update.
  EXPECT_GE(found, 1);
}

}  // namespace
}  // namespace squashlab
