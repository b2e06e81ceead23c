// SPDX-License-Identifier: GPL-2.0-only
// Tests of DestDir: which directories it holds open (none below a private
// destination, each one below a directory others can write to), refusing
// existing entries, what overwriting may replace, and that a symlink in the
// way of a directory is never crossed.
#include "cli/reader/dest_dir.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace squashlab::cli {
namespace {

namespace fs = std::filesystem;

fs::path FreshDir(const std::string& name) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  fs::path p = fs::path(tmp ? tmp : "/tmp") / name;
  fs::remove_all(p);
  return p;
}

Attributes Mode(mode_t mode) {
  Attributes a;
  a.mode = mode;
  a.uid = geteuid();
  a.gid = getegid();
  a.mtime = 1577934245;
  return a;
}

class ScopedUmask0 {
 public:
  ScopedUmask0() : saved_(umask(0)) {}
  ~ScopedUmask0() { umask(saved_); }

 private:
  mode_t saved_;
};

TEST(DestDirTest, APrivateDestinationOpensNoDirectoryBelowIt) {
  ScopedUmask0 u;
  const fs::path p = FreshDir("private");
  auto dest = DestDir::Open(p.string(), false);
  ASSERT_TRUE(dest.ok());
  auto a = (*dest)->MakeDir(kDestRoot, "a");
  ASSERT_TRUE(a.ok());
  auto b = (*dest)->MakeDir(*a, "b");
  ASSERT_TRUE(b.ok());
  EXPECT_EQ((*dest)->open_anchors(), 1u);
  EXPECT_EQ(fs::status(p / "a").permissions(), fs::perms::owner_all)
      << "private until finished";
  auto fd = (*dest)->CreateFile(*b, "f", 0644);
  ASSERT_TRUE(fd.ok());
  close(*fd);
  EXPECT_TRUE((*dest)->FinishDir(*b, Mode(0555)).ok());
  EXPECT_TRUE((*dest)->FinishDir(*a, Mode(0751)).ok());
  EXPECT_EQ(fs::status(p / "a/b").permissions(), static_cast<fs::perms>(0555));
  EXPECT_EQ(fs::status(p / "a").permissions(), static_cast<fs::perms>(0751));
  EXPECT_TRUE(fs::is_regular_file(p / "a/b/f"));
  EXPECT_EQ((*dest)->Show(*b, "f"), p.string() + "/a/b/f");
}

TEST(DestDirTest, DirectoriesOthersCouldSwapAreHeldOpenUntilFinished) {
  ScopedUmask0 u;
  const fs::path p = FreshDir("shared");
  fs::create_directories(p);
  chmod(p.c_str(), 0777);
  auto dest = DestDir::Open(p.string(), false);
  ASSERT_TRUE(dest.ok());
  auto a = (*dest)->MakeDir(kDestRoot, "a");  // in a world-writable directory
  ASSERT_TRUE(a.ok());
  EXPECT_EQ((*dest)->open_anchors(), 2u);
  auto b = (*dest)->MakeDir(*a, "b");  // in a directory of ours, mode 0700
  ASSERT_TRUE(b.ok());
  EXPECT_EQ((*dest)->open_anchors(), 2u);
  // The anchor is used even if someone renames a and plants a symlink.
  fs::rename(p / "a", p / "moved");
  fs::create_directory_symlink(FreshDir("elsewhere"), p / "a");
  auto fd = (*dest)->CreateFile(*b, "f", 0644);
  ASSERT_TRUE(fd.ok());
  close(*fd);
  EXPECT_TRUE(fs::exists(p / "moved/b/f"));
  EXPECT_TRUE((*dest)->FinishDir(*b, Mode(0755)).ok());
  EXPECT_TRUE((*dest)->FinishDir(*a, Mode(0755)).ok());
  EXPECT_EQ((*dest)->open_anchors(), 1u);
}

TEST(DestDirTest, ExistingEntriesAreRefusedWithoutOverwrite) {
  ScopedUmask0 u;
  const fs::path p = FreshDir("refuse");
  fs::create_directories(p / "d");
  std::ofstream(p / "f") << "keep";
  auto dest = DestDir::Open(p.string(), false);
  ASSERT_TRUE(dest.ok());
  auto d = (*dest)->MakeDir(kDestRoot, "d");
  EXPECT_EQ(d.status().code(), StatusCode::kIoError);
  EXPECT_NE(d.status().message().find("already exists"), std::string::npos);
  EXPECT_FALSE((*dest)->CreateFile(kDestRoot, "f", 0644).ok());
  EXPECT_FALSE((*dest)->MakeSymlink(kDestRoot, "f", "x").ok());
  EXPECT_FALSE((*dest)->MakeNode(kDestRoot, "f", S_IFIFO, 0644, 0).ok());
  EXPECT_EQ(fs::file_size(p / "f"), 4u);
}

TEST(DestDirTest, OverwriteReusesDirectoriesAndReplacesOtherEntries) {
  ScopedUmask0 u;
  const fs::path p = FreshDir("overwrite");
  fs::create_directories(p / "d");
  chmod(p.c_str(),
        0755);  // else d's name could be swapped: d would be held open
  std::ofstream(p / "d/f") << "old";
  auto dest = DestDir::Open(p.string(), true);
  ASSERT_TRUE(dest.ok());
  auto d = (*dest)->MakeDir(kDestRoot, "d");
  ASSERT_TRUE(d.ok());
  EXPECT_EQ((*dest)->open_anchors(), 1u);
  auto fd = (*dest)->CreateFile(*d, "f", 0600);
  ASSERT_TRUE(fd.ok());
  close(*fd);
  EXPECT_EQ(fs::file_size(p / "d/f"), 0u);
  EXPECT_TRUE((*dest)->MakeSymlink(*d, "f", "target").ok());
  EXPECT_EQ(fs::read_symlink(p / "d/f"), "target");
}

TEST(DestDirTest, ASymlinkWhereADirectoryGoesIsNeverCrossed) {
  ScopedUmask0 u;
  for (bool overwrite : {false, true}) {
    const fs::path outside = FreshDir("outside");
    const fs::path p = FreshDir("crossing");
    fs::create_directories(outside);
    fs::create_directories(p);
    fs::create_directory_symlink(outside, p / "d");
    auto dest = DestDir::Open(p.string(), overwrite);
    ASSERT_TRUE(dest.ok());
    auto d = (*dest)->MakeDir(kDestRoot, "d");
    EXPECT_FALSE(d.ok()) << overwrite;
    EXPECT_TRUE(fs::is_empty(outside));
  }
}

TEST(DestDirTest, AFinishedDirectoryTakesNoMoreEntries) {
  ScopedUmask0 u;
  const fs::path p = FreshDir("finished");
  auto dest = DestDir::Open(p.string(), false);
  ASSERT_TRUE(dest.ok());
  auto d = (*dest)->MakeDir(kDestRoot, "d");
  ASSERT_TRUE(d.ok());
  ASSERT_TRUE((*dest)->FinishDir(*d, Mode(0777)).ok());
  EXPECT_FALSE((*dest)->CreateFile(*d, "f", 0644).ok());
  EXPECT_FALSE((*dest)->MakeDir(*d, "e").ok());
  EXPECT_FALSE(fs::exists(p / "d/f"));
}

}  // namespace
}  // namespace squashlab::cli
