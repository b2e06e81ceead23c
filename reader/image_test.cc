// SPDX-License-Identifier: GPL-2.0-only
// Tests of the reader's public API against real mksquashfs images of every
// compressor (testdata/), whose contents follow testdata/expected_tree.h.
#include "reader/image.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <map>

#include "testdata/expected_tree.h"

namespace squashlab {
namespace {

using testdata::ExpectedPattern;
using testdata::ImagePath;

std::string ReadAll(Image* img, const Inode& in) {
  std::string out(in.file_size, '\0');
  auto n = img->ReadFile(
      in, 0,
      std::span<uint8_t>(reinterpret_cast<uint8_t*>(out.data()), out.size()));
  EXPECT_TRUE(n.ok()) << n.status().ToString();
  if (n.ok()) {
    EXPECT_EQ(*n, out.size());
  }
  return out;
}

class ImageTest : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    auto img = Image::Open(ImagePath(GetParam()));
    ASSERT_TRUE(img.ok()) << img.status().ToString();
    img_ = std::move(img).value();
  }
  Inode Get(const std::string& path) {
    auto in = img_->Lookup(path);
    EXPECT_TRUE(in.ok()) << path << ": " << in.status().ToString();
    return in.ok() ? *in : Inode{};
  }
  std::unique_ptr<Image> img_;
};

TEST_P(ImageTest, PatternFilesReadBackExactly) {
  for (const auto& f : testdata::PatternFiles()) {
    Inode in = Get(f.path);
    ASSERT_EQ(in.type, InodeType::kFile) << f.path;
    EXPECT_EQ(in.file_size, f.size) << f.path;
    EXPECT_EQ(ReadAll(img_.get(), in), ExpectedPattern(f.seed, f.size))
        << f.path;
  }
  EXPECT_EQ(ReadAll(img_.get(), Get("/text")), testdata::ExpectedText());
}

TEST_P(ImageTest, RangeReadsCrossBlockBoundaries) {
  Inode big = Get("/big");
  const std::string want = ExpectedPattern(5, 700000);
  for (uint64_t off : {0ull, 131071ull, 131072ull, 262143ull, 699990ull}) {
    std::string got(5000, '\0');
    auto n = img_->ReadFile(
        big, off,
        std::span<uint8_t>(reinterpret_cast<uint8_t*>(got.data()), got.size()));
    ASSERT_TRUE(n.ok()) << n.status().ToString();
    EXPECT_EQ(*n, std::min<uint64_t>(5000, 700000 - off));
    EXPECT_EQ(got.substr(0, *n), want.substr(off, *n)) << "offset " << off;
  }
}

TEST_P(ImageTest, PageByPageReadsAlternatingFilesMatch) {
  // Exercises the one-file, one-chunk cache of ReadFile: pages of two files
  // read in turn must never come from the other file's cached block.
  Inode big = Get("/big"), text = Get("/text");
  const std::string want_big = ExpectedPattern(5, 700000),
                    want_text = testdata::ExpectedText();
  std::string page(4096, '\0');
  auto span =
      std::span<uint8_t>(reinterpret_cast<uint8_t*>(page.data()), page.size());
  for (uint64_t off = 0; off < 400000; off += 4096) {
    auto n = img_->ReadFile(big, off, span);
    ASSERT_TRUE(n.ok());
    ASSERT_EQ(page.substr(0, *n), want_big.substr(off, *n)) << "big at " << off;
    n = img_->ReadFile(text, off, span);
    ASSERT_TRUE(n.ok());
    ASSERT_EQ(page.substr(0, *n), want_text.substr(off, *n))
        << "text at " << off;
  }
}

TEST_P(ImageTest, SparseFileReadsZerosAndTail) {
  Inode in = Get("/sparse");
  std::string want(1 << 20, '\0');
  want += "end";
  EXPECT_EQ(ReadAll(img_.get(), in), want);
}

TEST_P(ImageTest, HardLinksShareOneInode) {
  Inode a = Get("/big"), b = Get("/big_link");
  EXPECT_EQ(a.inode_number, b.inode_number);
  EXPECT_EQ(a.nlink, 2u);
}

TEST_P(ImageTest, SymlinksFifoAndModes) {
  EXPECT_EQ(Get("/sym").symlink_target, "big");
  EXPECT_EQ(Get("/long_sym").symlink_target, std::string(3000, 'x'));
  EXPECT_EQ(Get("/dangling").symlink_target, "no/such/target");
  EXPECT_EQ(Get("/fifo").type, InodeType::kFifo);
  EXPECT_EQ(Get("/small").permissions, 0640);
  EXPECT_EQ(Get("/suid").permissions, 04755);
}

TEST_P(ImageTest, XattrsIncludingLargeValues) {
  auto xs = img_->ListXattrs(Get("/small"));
  ASSERT_TRUE(xs.ok()) << xs.status().ToString();
  std::map<std::string, std::string> m;
  for (const auto& x : *xs) m[x.name] = x.value;
  EXPECT_EQ(m["user.color"], "blue");
  EXPECT_EQ(m["user.big"], ExpectedPattern(7, 3000));
  auto none = img_->ListXattrs(Get("/big"));
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
}

TEST_P(ImageTest, LargeDirectoryLookupsUseTheIndex) {
  Inode many = Get("/many");
  EXPECT_GT(many.dir_index_count, 0)
      << "1000 entries should span several metadata blocks";
  auto entries = img_->ReadDir(many);
  ASSERT_TRUE(entries.ok());
  ASSERT_EQ(entries->size(), 1000u);
  for (int i : {0, 1, 499, 500, 998, 999}) {
    char name[32];
    std::snprintf(name, sizeof name, "entry_%04d", i);
    EXPECT_EQ((*entries)[i].name, name);
    Inode in = Get(std::string("/many/") + name);
    EXPECT_EQ(ReadAll(img_.get(), in), name);
  }
  EXPECT_EQ(img_->Lookup("/many/entry_1000").status().code(),
            StatusCode::kNotFound);
  EXPECT_EQ(img_->Lookup("/many/entry_").status().code(),
            StatusCode::kNotFound);
  EXPECT_EQ(img_->Lookup("/many/zzz").status().code(), StatusCode::kNotFound);
}

TEST_P(ImageTest, DeepPathsAndBadPaths) {
  std::string p;
  for (int i = 0; i < 20; ++i) p += "/d" + std::to_string(i);
  EXPECT_EQ(ReadAll(img_.get(), Get(p + "/leaf")), "leaf");
  EXPECT_EQ(img_->Lookup("/big/x").status().code(), StatusCode::kNotFound);
  EXPECT_EQ(img_->Lookup("/../etc").status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(Get("").type, InodeType::kDirectory);
}

TEST_P(ImageTest, UidGidAndExportTable) {
  Inode small = Get("/small");
  auto uid = img_->Uid(small);
  ASSERT_TRUE(uid.ok());
  auto ref = img_->ExportLookup(small.inode_number);
  ASSERT_TRUE(ref.ok()) << ref.status().ToString();
  EXPECT_EQ(*ref, small.ref);
}

INSTANTIATE_TEST_SUITE_P(
    AllCodecs, ImageTest,
    ::testing::Values("tree_gzip", "tree_lzma", "tree_lzo", "tree_lz4",
                      "tree_xz", "tree_zstd", "tree_raw", "tree_4k_nofrag",
                      "tree_gzip_options", "tree_xz_options",
                      "tree_lz4_options", "tree_lzo_options",
                      "tree_zstd_options"));

TEST(EmptyImageTest, EmptyRootHasNoEntries) {
  auto img = Image::Open(ImagePath("empty_root"));
  ASSERT_TRUE(img.ok()) << img.status().ToString();
  auto root = (*img)->Root();
  ASSERT_TRUE(root.ok()) << root.status().ToString();
  auto entries = (*img)->ReadDir(*root);
  ASSERT_TRUE(entries.ok()) << entries.status().ToString();
  EXPECT_TRUE(entries->empty());
  EXPECT_EQ((*img)->Lookup("/x").status().code(), StatusCode::kNotFound);
}

TEST(CompressorOptionsTest, StoredOptionsAreDecoded) {
  const std::pair<const char*, const char*> cases[] = {
      {"tree_gzip_options", "level=1 window=10 strategies=filtered"},
      {"tree_xz_options", "dictionary=65536 filters=x86"},
      {"tree_lz4_options", "version=1 hc"},
      {"tree_lzo_options", "algorithm=lzo1x_1 level=0"},
      {"tree_zstd_options", "level=3"},
  };
  for (const auto& [name, want] : cases) {
    auto img = Image::Open(ImagePath(name));
    ASSERT_TRUE(img.ok()) << name << ": " << img.status().ToString();
    EXPECT_TRUE((*img)->superblock().has(kCompressorOptions)) << name;
    EXPECT_EQ((*img)->compressor_options().description, want) << name;
  }
  auto plain = Image::Open(ImagePath("tree_gzip"));
  ASSERT_TRUE(plain.ok());
  EXPECT_FALSE((*plain)->compressor_options().present);
}

}  // namespace
}  // namespace squashlab
