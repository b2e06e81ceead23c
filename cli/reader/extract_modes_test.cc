// SPDX-License-Identifier: GPL-2.0-only
// Tests of `squashlab extract` on cli/reader/make_modes_image.sh's image: modes
// and owners that would block a naive extraction (read-only and no-search
// directories), hard links into them, empty files, special files, and
// subsets of the tree. Every entry is compared with what the image says.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "cli/cli_status.h"
#include "cli/commands.h"
#include "cli/reader/extractor.h"
#include "cli/reader/tree_walker.h"
#include "cli/testing/temp_files.h"
#include "reader/image.h"

namespace squashlab::cli {
namespace {

namespace fs = std::filesystem;

const char kImage[] = "cli/modes.sqfs";

using test_files::FreshDir;
using test_files::Slurp;

struct stat Lstat(const fs::path& p) {
  struct stat st = {};
  EXPECT_EQ(lstat(p.c_str(), &st), 0) << p;
  return st;
}

// Every inode below `from` in the image against its copy in dest.
void ExpectMatchesImage(const fs::path& dest, const std::string& from) {
  auto image = Image::Open(kImage);
  ASSERT_TRUE(image.ok());
  auto start = (*image)->Lookup(from);
  ASSERT_TRUE(start.ok());
  const bool root = geteuid() == 0;
  Status s =
      WalkTree(image->get(), from, *start, true, [&](const WalkItem& item) {
        if (!root && (item.inode.type == InodeType::kCharDevice))
          return Status::Ok();
        const struct stat st =
            Lstat(dest.string() + (item.path == "/" ? "" : item.path));
        EXPECT_EQ(st.st_mode & 07777, item.inode.permissions & 07777u)
            << item.path;
        EXPECT_EQ(st.st_mtime, static_cast<time_t>(item.inode.mtime))
            << item.path;
        if (root) {
          EXPECT_EQ(st.st_uid, *(*image)->Uid(item.inode)) << item.path;
          EXPECT_EQ(st.st_gid, *(*image)->Gid(item.inode)) << item.path;
        }
        return Status::Ok();
      });
  EXPECT_TRUE(s.ok()) << s.ToString();
}

TEST(ExtractModesTest, ReadOnlyDirectoriesOwnersLinksAndSpecialFiles) {
  for (const char* threads : {"1", "2", "4"}) {
    const fs::path dest = FreshDir(std::string("modes_") + threads);
    ASSERT_EQ(RunExtract({"-q", "-p", threads, kImage, dest.string()}),
              kExitOk);
    ExpectMatchesImage(dest, "/");
    EXPECT_EQ(Slurp(dest / "ro/f"), "read-only parent\n");
    EXPECT_EQ(Slurp(dest / "noexec/h"), "behind a directory without x\n");
    const struct stat g = Lstat(dest / "other/g");
    EXPECT_EQ(g.st_nlink, 3u);
    EXPECT_EQ(Lstat(dest / "ro/sub/g_link").st_ino, g.st_ino);
    EXPECT_EQ(Lstat(dest / "ro/g_link2").st_ino, g.st_ino);
    EXPECT_EQ(Slurp(dest / "ro/sub/g_link"), "linked twice\n");
    EXPECT_EQ(Lstat(dest / "ro/empty_suid").st_size, 0);
    EXPECT_TRUE(S_ISFIFO(Lstat(dest / "other/fifo").st_mode));
    EXPECT_EQ(fs::read_symlink(dest / "other/escape"), "../../outside");
    EXPECT_FALSE(fs::exists(dest.parent_path() / "outside"));
    if (geteuid() == 0) {
      const struct stat dev = Lstat(dest / "other/dev");
      EXPECT_TRUE(S_ISCHR(dev.st_mode));
      EXPECT_EQ(major(dev.st_rdev), 1u);
      EXPECT_EQ(minor(dev.st_rdev), 3u);
    }
  }
}

TEST(ExtractModesTest, SubsetsKeepHardLinksAndAncestorAttributes) {
  const fs::path dest = FreshDir("modes_subset");
  ASSERT_EQ(RunExtract({"-q", kImage, dest.string(), "/ro/sub", "other/g"}),
            kExitOk);
  EXPECT_EQ(Lstat(dest / "ro/sub/g_link").st_ino,
            Lstat(dest / "other/g").st_ino);
  EXPECT_FALSE(fs::exists(dest / "ro/f"));
  EXPECT_FALSE(fs::exists(dest / "other/fifo"));
  // Ancestors get the image's modes and times too, at the end.
  EXPECT_EQ(Lstat(dest / "ro").st_mode & 07777, 0555u);
  ExpectMatchesImage(dest, "/ro/sub");
}

TEST(ExtractModesTest, OverlappingPathsAreExtractedOnce) {
  const fs::path dest = FreshDir("modes_overlap");
  ASSERT_EQ(RunExtract({"-q", kImage, dest.string(), "/ro/sub", "/ro", "/ro/"}),
            kExitOk);
  ExpectMatchesImage(dest, "/ro");
  EXPECT_FALSE(fs::exists(dest / "other"));
}

TEST(ExtractModesTest, PathsThatCoverOthersAreKept) {
  EXPECT_EQ(DisjointPaths({"/a/b", "/a", "/c", "/a"}),
            (std::vector<std::string>{"/a", "/c"}));
  EXPECT_EQ(DisjointPaths({"/ab", "/a"}),
            (std::vector<std::string>{"/ab", "/a"}));
  EXPECT_EQ(DisjointPaths({"/x", "/"}), (std::vector<std::string>{"/"}));
}

}  // namespace
}  // namespace squashlab::cli
