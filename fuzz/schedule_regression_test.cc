// SPDX-License-Identifier: GPL-2.0-only
// This file implements the test that the schedule fuzzer keeps finding
// async-2013's bugs: every input committed in
// fuzz/regression/schedule_async2013_fuzzer/ (listed with its report class
// in manifest.txt there) still produces a report of that class, and the
// same bytes run clean on async-fixed. It also pins the input layout.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz/schedule_case.h"

namespace squashlab::fuzz {
namespace {

const char kDir[] = "fuzz/regression/schedule_async2013_fuzzer/";

std::vector<uint8_t> ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << path;
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
}

struct Expected {
  std::string file;
  std::string kind;  // ReportKindName
};

std::vector<Expected> Manifest() {
  std::ifstream in(std::string(kDir) + "manifest.txt");
  std::vector<Expected> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    Expected e;
    fields >> e.file >> e.kind;
    out.push_back(e);
  }
  return out;
}

ScheduleRun RunFile(const std::string& file,
                    const std::vector<std::string>& variants) {
  std::vector<uint8_t> bytes = ReadBytes(kDir + file);
  return RunScheduleCase(
      DecodeScheduleCase(bytes.data(), bytes.size(), variants));
}

TEST(ScheduleRegression, EveryCommittedAsync2013FindingStillReportsItsClass) {
  std::vector<Expected> manifest = Manifest();
  std::set<std::string> classes;
  for (const Expected& e : manifest) {
    ScheduleRun run = RunFile(e.file, {kKnownBuggyVariant});
    ASSERT_TRUE(run.result.failed())
        << e.file << " on " << run.scenario << " ran clean";
    // A run goes on after warnings: the class may follow other reports.
    bool found = false;
    for (const Report& r : run.result.reports)
      found |= ReportKindName(r.kind) == e.kind;
    EXPECT_TRUE(found) << e.file << ": no " << e.kind << "\n"
                       << FormatScheduleFinding(run);
    classes.insert(e.kind);
  }
  // The hang, the use-after-free and the NULL dereference at least
  // (model/variants/README.md; the Bad page state's input oopses first on
  // SLUB, manifest.txt).
  EXPECT_GE(classes.size(), 3u) << "manifest lost classes";
}

TEST(ScheduleRegression, TheSameBytesRunCleanOnAsyncFixed) {
  for (const Expected& e : Manifest()) {
    ScheduleRun run = RunFile(e.file, {"async-fixed"});
    EXPECT_FALSE(run.result.failed()) << e.file << "\n"
                                      << FormatScheduleFinding(run);
  }
}

TEST(ScheduleCase, DecodesTheDocumentedLayout) {
  const std::vector<std::string> variants = {"a", "b", "c"};
  const uint8_t bytes[] = {4, 1, 3, 1, 0, 0x78, 0x56, 0x34, 0x12, 0, 2, 1};
  ScheduleCase c = DecodeScheduleCase(bytes, sizeof(bytes), variants);
  EXPECT_EQ(c.spec.variant, "b");
  EXPECT_EQ(c.spec.decomp, "multi");
  EXPECT_EQ(c.spec.workload, "rand");
  EXPECT_EQ(c.spec.faults, "eio");
  EXPECT_EQ(c.spec.device, "");
  EXPECT_EQ(c.spec.kernel, "");
  EXPECT_EQ(c.seed, 0x12345678u);
  EXPECT_EQ(c.choices, (std::vector<uint8_t>{0, 2, 1}));
  const uint8_t prod[] = {0, 0, 0, 0x81};
  EXPECT_EQ(DecodeScheduleCase(prod, sizeof(prod), variants).spec.Name(),
            "a/single/dd/eio//prod");
  ScheduleCase empty = DecodeScheduleCase(nullptr, 0, variants);
  EXPECT_EQ(empty.spec.Name(), "a/single/dd");
  EXPECT_TRUE(empty.choices.empty());
}

TEST(ScheduleCase, DeviceBytesPickProfilesAndComposeDeviceFaults) {
  ASSERT_GE(Devices().size(), 4u);
  EXPECT_EQ(Devices()[0], "");
  EXPECT_EQ(Devices()[1].find(",bs=512"), Devices()[1].size() - 7);
  EXPECT_EQ(Devices()[2].find(','), std::string::npos);
  // On the RAM disk bits 2-4 are ignored; on a device they add faults.
  EXPECT_EQ(DeviceFaults(0x1d, ""), "eio");
  EXPECT_EQ(DeviceFaults(0x02, Devices()[2]), "reada");
  EXPECT_EQ(DeviceFaults(0x1d, Devices()[2]),
            "eio=0.167;delay=0.25;delay_us=200;reorder=0.25;short=0.125");
  EXPECT_EQ(DeviceFaults(0x08, Devices()[2]), "reorder=0.25");
  EXPECT_EQ(DeviceFaults(0x1f, Devices()[2]),
            "bitflip");  // never a device flip=
  // Every decoded device scenario builds (RunScheduleCase would abort).
  for (size_t d = 0; d < Devices().size(); d++) {
    for (uint8_t f : {0x00, 0x03, 0x1f}) {
      const uint8_t bytes[] = {0, 0, 5, f, static_cast<uint8_t>(d)};
      ScheduleRun run = RunScheduleCase(
          DecodeScheduleCase(bytes, sizeof(bytes), {"sync-3.13"}));
      EXPECT_FALSE(run.result.failed()) << FormatScheduleFinding(run);
    }
  }
}

TEST(ScheduleCase, CorrectVariantsAreAllButTheKnownBuggyOne) {
  std::vector<std::string> v = CorrectVariants();
  EXPECT_EQ(v.size(), 5u);
  for (const std::string& name : v) EXPECT_NE(name, kKnownBuggyVariant);
}

}  // namespace
}  // namespace squashlab::fuzz
