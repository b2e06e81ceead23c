// SPDX-License-Identifier: GPL-2.0-only
// Tests of `squashlab extract` through its entry point: what lands in DEST
// (content, modes, times, links, xattrs), that nothing lands outside it, and
// the exit codes.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "cli/cli_status.h"
#include "cli/commands.h"
#include "cli/testing/temp_files.h"
#include "reader/image.h"
#include "testdata/expected_tree.h"

namespace squashlab::cli {
namespace {

namespace fs = std::filesystem;

using test_files::FreshDir;
using test_files::Slurp;

class ExtractTest : public ::testing::TestWithParam<const char*> {};

TEST_P(ExtractTest, TreeLandsWithContentModesTimesLinksAndXattrs) {
  const std::string img_path = testdata::ImagePath(GetParam());
  const fs::path dest = FreshDir(std::string("dest_") + GetParam());
  ASSERT_EQ(RunExtract({"-p", "2", img_path, dest.string()}), kExitOk);
  for (const auto& f : testdata::PatternFiles()) {
    EXPECT_EQ(Slurp(dest / (f.path + 1)),
              testdata::ExpectedPattern(f.seed, f.size))
        << f.path;
  }
  EXPECT_EQ(Slurp(dest / "text"), testdata::ExpectedText());
  std::string sparse(1 << 20, '\0');
  EXPECT_EQ(Slurp(dest / "sparse"), sparse + "end");
  struct stat st, st2;
  ASSERT_EQ(stat((dest / "sparse").c_str(), &st), 0);
  EXPECT_LT(st.st_blocks * 512, 1 << 20) << "sparse blocks should stay holes";
  ASSERT_EQ(stat((dest / "small").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
  ASSERT_EQ(stat((dest / "suid").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 04755u);
  ASSERT_EQ(stat((dest / "big").c_str(), &st), 0);
  ASSERT_EQ(stat((dest / "big_link").c_str(), &st2), 0);
  EXPECT_EQ(st.st_ino, st2.st_ino) << "hard links must stay one inode";
  EXPECT_EQ(fs::read_symlink(dest / "sym"), "big");
  EXPECT_EQ(fs::read_symlink(dest / "long_sym").string(),
            std::string(3000, 'x'));
  EXPECT_EQ(fs::read_symlink(dest / "dangling"), "no/such/target");
  EXPECT_TRUE(fs::is_fifo(fs::symlink_status(dest / "fifo")));
  EXPECT_EQ(Slurp(dest / "many" / "entry_0999"), "entry_0999");
  char value[16] = {};
  ASSERT_EQ(
      getxattr((dest / "small").c_str(), "user.color", value, sizeof value), 4);
  EXPECT_STREQ(value, "blue");
  // Times: every inode's mtime as the image has it, directories included.
  auto image = Image::Open(img_path);
  ASSERT_TRUE(image.ok());
  for (const char* p : {"/small", "/many", "/d0/d1", "/sym", ""}) {
    auto in = (*image)->Lookup(p);
    ASSERT_TRUE(in.ok());
    ASSERT_EQ(lstat((dest.string() + p).c_str(), &st), 0) << p;
    EXPECT_EQ(st.st_mtime, static_cast<time_t>(in->mtime)) << p;
  }
}

INSTANTIATE_TEST_SUITE_P(Images, ExtractTest,
                         ::testing::Values("tree_gzip", "tree_zstd", "tree_raw",
                                           "tree_4k_nofrag"));

TEST(ExtractSafetyTest, PlantedSymlinkInDestIsRefusedNotFollowed) {
  const fs::path outside = FreshDir("outside");
  const fs::path dest = FreshDir("planted");
  fs::create_directories(outside);
  fs::create_directories(dest);
  fs::create_directory_symlink(outside, dest / "many");
  const int rc = RunExtract({testdata::ImagePath("tree_zstd"), dest.string()});
  EXPECT_EQ(rc, kExitIo);
  EXPECT_TRUE(fs::is_empty(outside))
      << "extraction wrote through a planted symlink";
  EXPECT_TRUE(fs::is_symlink(dest / "many"));
}

TEST(ExtractSafetyTest, SelectedPathsOnly) {
  const fs::path dest = FreshDir("selected");
  ASSERT_EQ(RunExtract({testdata::ImagePath("tree_gzip"), dest.string(),
                        "/d0/d1/d2", "small"}),
            kExitOk);
  EXPECT_TRUE(fs::is_directory(dest / "d0/d1/d2/d3"));
  EXPECT_EQ(Slurp(dest / "small"), testdata::ExpectedPattern(1, 100));
  EXPECT_FALSE(fs::exists(dest / "big"));
  EXPECT_FALSE(fs::exists(dest / "many"));
}

TEST(ExitCodeTest, EachKindOfFailureHasItsCode) {
  const fs::path dest = FreshDir("codes");
  EXPECT_EQ(
      RunExtract({testdata::ImagePath("tree_gzip"), dest.string(), "/no/such"}),
      kExitNotFound);
  EXPECT_EQ(RunExtract({testdata::ImagePath("tree_gzip")}), kExitUsage);
  EXPECT_EQ(
      RunExtract({"-p", "0", testdata::ImagePath("tree_gzip"), dest.string()}),
      kExitUsage);
  EXPECT_EQ(RunCat({testdata::ImagePath("tree_gzip"), "/many"}), kExitUsage);
  EXPECT_EQ(RunInfo({"/no/such/image"}), kExitIo);
  // A truncated image is corrupt.
  const fs::path cut = FreshDir("cut.sqfs");
  std::string bytes = Slurp(testdata::ImagePath("tree_gzip"));
  std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  EXPECT_EQ(RunInfo({cut.string()}), kExitCorrupt);
  EXPECT_EQ(RunLs({"-q", cut.string()}), kExitUsage);
  EXPECT_EQ(RunLs({cut.string()}), kExitCorrupt);
}

}  // namespace
}  // namespace squashlab::cli
