// SPDX-License-Identifier: GPL-2.0-only
// This file implements the tests of the UBSAN checks the real kernel's
// modules are compiled with (model/kernel/checkers/ubsan.cc): a shift past the
// type's width, an index past an array's bound and a bool holding 2 each
// give lib/ubsan.c's report, titled by the place, as a warning the task
// goes on after, once a run; in-range operations are silent.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/kernel/checkers/kasan_shadow.h"
#include "model/kernel/testing/contract.h"

extern "C" {
struct sl_ubsan_probe_table {
  int slot[4];
};
extern const int sl_ubsan_probe_shift_line;
extern const int sl_ubsan_probe_index_line;
extern const int sl_ubsan_probe_bool_line;
int sl_ubsan_probe_shift(int value, int by);
int sl_ubsan_probe_index(struct sl_ubsan_probe_table* t, int i);
int sl_ubsan_probe_bool(const bool* b);
}

namespace squashlab {
namespace {

// The reports of one run of `body` as the task "dd", and whether the task
// got past it.
std::vector<Report> RunReports(std::function<void()> body, bool* finished) {
  Explorer explorer;
  *finished = false;
  Scenario sc{"ubsan", KernelConfig{}, [body, finished](Kernel& k) {
                k.Spawn(TaskSpec{"dd", TaskContext::kProcess, 0, 0, 0,
                                 [body, finished] {
                                   body();
                                   *finished = true;
                                 }});
              }};
  ReplayStrategy replay({});
  return explorer.RunOnce(sc, replay, 1, false).reports;
}

// Whether `title` is lib/ubsan.c's for `reason` at the probe's `line`
// (any column: gcc's and clang's differ).
bool At(const std::string& title, const char* reason, int line) {
  const std::string head =
      std::string("UBSAN: ") + reason +
      " in model/kernel/tests/ubsan_probe.c:" + std::to_string(line) + ":";
  if (title.rfind(head, 0) != 0 || title.size() == head.size()) return false;
  return title.find_first_not_of("0123456789", head.size()) ==
         std::string::npos;
}

class Ubsan : public ::testing::Test {
 protected:
  void SetUp() override {
    // The modules carry UBSAN exactly where their KASAN checks are inline:
    // not under a userspace sanitizer (copts.bzl).
    if (!KasanInlineBuild())
      GTEST_SKIP() << "a userspace sanitizer's build: no kernel UBSAN";
    std::string why;  // the probe's loads and stores check inline
    ASSERT_TRUE(ReserveKasanShadow(&why)) << why;
  }
};

volatile int g_sink;

TEST_F(Ubsan, ShiftPastTheWidthIsReportedOnceAndTheTaskGoesOn) {
  bool finished = false;
  auto reports = RunReports(
      [] {
        volatile int by = 40;
        g_sink = sl_ubsan_probe_shift(1, by);
        g_sink = sl_ubsan_probe_shift(1, by);  // the same place: no second
      },
      &finished);
  ASSERT_EQ(reports.size(), 1u);
  const Report& r = reports[0];
  EXPECT_REPORT(r, ReportKind::kUndefinedBehavior);
  EXPECT_TRUE(At(r.title, "shift-out-of-bounds", sl_ubsan_probe_shift_line))
      << r.title;
  EXPECT_NE(r.body.find("\nshift exponent 40 is too large for 32-bit type "
                        "'int'"),
            std::string::npos)
      << r.ToString();
  EXPECT_TRUE(r.warning);
  EXPECT_EQ(r.contract, "ubsan.shift_out_of_bounds");
  EXPECT_TRUE(finished);
}

TEST_F(Ubsan, NegativeExponentAndNegativeBase) {
  bool finished = false;
  auto reports =
      RunReports([] { g_sink = sl_ubsan_probe_shift(1, -3); }, &finished);
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_NE(reports[0].body.find("shift exponent -3 is negative"),
            std::string::npos)
      << reports[0].ToString();
  reports = RunReports([] { g_sink = sl_ubsan_probe_shift(-8, 2); }, &finished);
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_NE(reports[0].body.find("left shift of negative value -8"),
            std::string::npos)
      << reports[0].ToString();
}

TEST_F(Ubsan, IndexPastTheBound) {
  bool finished = false;
  auto reports = RunReports(
      [] {
        sl_ubsan_probe_table t[2] = {};
        g_sink = sl_ubsan_probe_index(&t[0], 5);
      },
      &finished);
  ASSERT_EQ(reports.size(), 1u);
  const Report& r = reports[0];
  EXPECT_REPORT(r, ReportKind::kUndefinedBehavior);
  EXPECT_TRUE(
      At(r.title, "array-index-out-of-bounds", sl_ubsan_probe_index_line))
      << r.title;
  // The type's name is the compiler's: gcc's 'int [4]', clang's 'int[4]'.
  EXPECT_TRUE(r.body.find("\nindex 5 is out of range for type 'int [4]'") !=
                  std::string::npos ||
              r.body.find("\nindex 5 is out of range for type 'int[4]'") !=
                  std::string::npos)
      << r.ToString();
  EXPECT_EQ(r.contract, "ubsan.array_index_out_of_bounds");
  EXPECT_TRUE(finished);
}

TEST_F(Ubsan, BoolHoldingTwo) {
  bool finished = false;
  auto reports = RunReports(
      [] {
        unsigned char two = 2;
        const bool* b = reinterpret_cast<const bool*>(&two);
        g_sink = sl_ubsan_probe_bool(b);
      },
      &finished);
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_TRUE(At(reports[0].title, "invalid-load", sl_ubsan_probe_bool_line))
      << reports[0].title;
  EXPECT_NE(reports[0].body.find("load of value 2 is not a valid value for "
                                 "type '"),
            std::string::npos)
      << reports[0].ToString();
}

TEST_F(Ubsan, InRangeOperationsAreSilent) {
  bool finished = false;
  auto reports = RunReports(
      [] {
        sl_ubsan_probe_table t = {{1, 2, 3, 4}};
        bool yes = true;
        g_sink = sl_ubsan_probe_shift(1, 31 - 1) + sl_ubsan_probe_index(&t, 3) +
                 sl_ubsan_probe_bool(&yes);
      },
      &finished);
  EXPECT_TRUE(reports.empty()) << reports[0].ToString();
  EXPECT_TRUE(finished);
}

}  // namespace
}  // namespace squashlab
