// SPDX-License-Identifier: GPL-2.0-only
// Tests of `squashlab extract`'s options: refusing to overwrite unless -f,
// what -f may and may not replace, the summary line and -q, unknown options.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "cli/cli_status.h"
#include "cli/commands.h"
#include "cli/testing/temp_files.h"
#include "testdata/expected_tree.h"

namespace squashlab::cli {
namespace {

namespace fs = std::filesystem;

using test_files::FreshDir;
using test_files::Slurp;

const std::string kImage = testdata::ImagePath("tree_gzip");

TEST(ExtractOverwriteTest, RefusesAnExistingEntryUnlessForced) {
  const fs::path dest = FreshDir("again");
  ASSERT_EQ(RunExtract({"-q", kImage, dest.string()}), kExitOk);
  std::ofstream(dest / "small") << "changed";
  testing::internal::CaptureStderr();
  EXPECT_EQ(RunExtract({"-q", kImage, dest.string()}), kExitIo);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("already exists (-f to overwrite)"), std::string::npos)
      << err;
  EXPECT_EQ(err.find('\n'), err.size() - 1) << "one line: " << err;
  EXPECT_EQ(Slurp(dest / "small"), "changed");
  ASSERT_EQ(RunExtract({"-q", "-f", kImage, dest.string()}), kExitOk);
  EXPECT_EQ(Slurp(dest / "small"), testdata::ExpectedPattern(1, 100));
  EXPECT_EQ(Slurp(dest / "many/entry_0999"), "entry_0999");
}

TEST(ExtractOverwriteTest, AnExistingEmptyDestinationIsFine) {
  const fs::path dest = FreshDir("existing");
  fs::create_directories(dest);
  EXPECT_EQ(RunExtract({"-q", kImage, dest.string()}), kExitOk);
}

TEST(ExtractOverwriteTest, ForceReplacesASymlinkWithoutFollowingIt) {
  const fs::path outside = FreshDir("precious");
  const fs::path dest = FreshDir("replace_symlink");
  fs::create_directories(outside);
  fs::create_directories(dest);
  std::ofstream(outside / "target") << "precious";
  fs::create_symlink(outside / "target", dest / "small");
  fs::create_symlink(outside / "target",
                     dest / "big_link");  // a hard link's name
  fs::create_symlink(outside / "target", dest / "sym");
  ASSERT_EQ(RunExtract({"-q", "-f", kImage, dest.string()}), kExitOk);
  EXPECT_EQ(Slurp(outside / "target"), "precious");
  EXPECT_FALSE(fs::is_symlink(dest / "small"));
  EXPECT_EQ(Slurp(dest / "small"), testdata::ExpectedPattern(1, 100));
  EXPECT_EQ(Slurp(dest / "big_link"), testdata::ExpectedPattern(5, 700000));
  EXPECT_EQ(fs::read_symlink(dest / "sym"), "big");
}

TEST(ExtractOverwriteTest, ForceNeverCrossesAPlantedSymlink) {
  const fs::path outside = FreshDir("outside_f");
  const fs::path dest = FreshDir("planted_f");
  fs::create_directories(outside);
  fs::create_directories(dest / "d0");
  fs::create_directory_symlink(outside, dest / "d0/d1");
  EXPECT_EQ(RunExtract({"-q", "-f", kImage, dest.string()}), kExitIo);
  EXPECT_TRUE(fs::is_empty(outside))
      << "extraction wrote through a planted symlink";
}

TEST(ExtractOverwriteTest, ForceDoesNotReplaceADirectory) {
  const fs::path dest = FreshDir("dir_in_the_way");
  fs::create_directories(dest / "small/keep");
  EXPECT_EQ(RunExtract({"-q", "-f", kImage, dest.string()}), kExitIo);
  EXPECT_TRUE(fs::is_directory(dest / "small/keep"));
}

TEST(ExtractOutputTest, OneSummaryLineUnlessQuiet) {
  const fs::path dest = FreshDir("summary");
  testing::internal::CaptureStdout();
  ASSERT_EQ(RunExtract({kImage, dest.string()}), kExitOk);
  const std::string out = testing::internal::GetCapturedStdout();
  // 9 regular files at the root (big_link is a hard link), 1000 in many/, 1
  // leaf.
  EXPECT_EQ(
      out.rfind(
          "1010 files, 21 dirs, 3 symlinks, 1 hard links, 1 special files, ",
          0),
      0u)
      << out;
  EXPECT_NE(out.find(" MB/s)\n"), std::string::npos) << out;
  EXPECT_EQ(out.find('\n'), out.size() - 1) << out;
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  ASSERT_EQ(RunExtract({"-q", "-f", kImage, dest.string()}), kExitOk);
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "");
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

TEST(ExtractOutputTest, UnknownOptionIsAUsageError) {
  const fs::path dest = FreshDir("unknown");
  testing::internal::CaptureStderr();
  EXPECT_EQ(RunExtract({"-x", kImage, dest.string()}), kExitUsage);
  testing::internal::GetCapturedStderr();
  EXPECT_FALSE(fs::exists(dest));
}

}  // namespace
}  // namespace squashlab::cli
