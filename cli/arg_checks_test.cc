// SPDX-License-Identifier: GPL-2.0-only
// This file tests the argument checks: writable outputs and whole numbers.
#include "cli/arg_checks.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

namespace squashlab::cli {
namespace {

std::string TmpDir() {
  const char* t = std::getenv("TEST_TMPDIR");
  return t != nullptr ? t : "/tmp";
}

std::string Check(const CLI::Validator& v, std::string value) {
  return v(value);
}

TEST(WritableFile, NewNameInAWritableDirectoryPasses) {
  EXPECT_EQ(CheckWritableFile(TmpDir() + "/new.json"), "");
}

TEST(WritableFile, MissingDirectoryIsNamed) {
  std::string why = CheckWritableFile("/nonexistent/dir/p.json");
  EXPECT_NE(why.find("/nonexistent/dir"), std::string::npos) << why;
}

TEST(WritableFile, ADirectoryIsNotAFile) {
  EXPECT_NE(CheckWritableFile(TmpDir()), "");
}

TEST(WritableDir, ExistingOrCreatableDirectoryPasses) {
  EXPECT_EQ(Check(WritableDir(), TmpDir()), "");
  EXPECT_EQ(Check(WritableDir(), TmpDir() + "/to-create"), "");
  EXPECT_NE(Check(WritableDir(), "/nonexistent/x/y"), "");
  const std::string file = TmpDir() + "/a-file";
  std::ofstream(file) << "x";
  EXPECT_NE(Check(WritableDir(), file), "");
}

TEST(PlotFile, NeedsAnImageFormat) {
  EXPECT_EQ(Check(PlotFile(), TmpDir() + "/p.png"), "");
  EXPECT_NE(Check(PlotFile(), TmpDir() + "/p.txt"), "");
}

TEST(AtLeast, WholeNumbersOnly) {
  EXPECT_EQ(Check(AtLeast(0), "0"), "");
  EXPECT_EQ(Check(AtLeast(1), "256"), "");
  EXPECT_EQ(Check(AtLeast(0), "abc"), "'abc' is not a whole number");
  EXPECT_EQ(Check(AtLeast(0), "-5"), "-5 is below 0");
  EXPECT_NE(Check(AtLeast(0), "1e3"), "");
  EXPECT_NE(Check(AtLeast(0), "12abc"), "");
  EXPECT_NE(Check(AtLeast(0), ""), "");
  EXPECT_NE(Check(AtLeast(0), "99999999999999999999999"), "");
}

TEST(PositiveSeconds, RefusesWhatIsNotATime) {
  EXPECT_EQ(Check(PositiveSeconds(), "40"), "");
  EXPECT_EQ(Check(PositiveSeconds(), "0.5"), "");
  for (const char* bad : {"abc", "-1", "0", "nan", "inf", ""})
    EXPECT_NE(Check(PositiveSeconds(), bad), "") << bad;
}

}  // namespace
}  // namespace squashlab::cli
