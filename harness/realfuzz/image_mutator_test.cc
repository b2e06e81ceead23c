// SPDX-License-Identifier: GPL-2.0-only
// This file implements the tests of the image field map and the mutator:
// the map of a mksquashfs image with uncompressed metadata reaches every
// kind of field (and the fields hold what mksquashfs wrote), parsing any
// bytes stays inside them, and mutation is deterministic and changes the
// image.
#include "harness/realfuzz/image_mutator.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "harness/realfuzz/image_fields.h"
#include "harness/realfuzz/seeds.h"

namespace squashlab {
namespace {

const SeedImage& Seed(const std::string& name) {
  static const std::vector<SeedImage>* seeds = [] {
    auto made = DefaultFuzzSeeds();
    EXPECT_TRUE(made.ok()) << made.status().ToString();
    return new std::vector<SeedImage>(made.ok() ? *made
                                                : std::vector<SeedImage>{});
  }();
  for (const SeedImage& s : *seeds)
    if (s.name == name) return s;
  static const SeedImage none{};
  return none;
}

const SeedImage& RawSeed() { return Seed("raw-4k"); }

TEST(ImageFields, MapReachesEveryKindOfField) {
  const SeedImage& seed = RawSeed();
  ASSERT_FALSE(seed.bytes.empty());
  ImageFields map = ParseImageFields(seed.bytes);
  std::map<std::string, std::vector<uint64_t>> by_name;
  for (const ImageField& f : map.fields)
    by_name[f.name].push_back(f.Read(seed.bytes));
  for (const char* name :
       {"sb.inodes", "sb.id_table_start", "metadata.length", "inode.uid",
        "inode.number", "dir.parent", "file.fragment", "file.size",
        "inode.block_length", "symlink.size", "dirhdr.count", "dirent.size",
        "fragment.index", "fragment.entry", "id.index", "id.entry",
        "export.index", "export.entry"})
    EXPECT_TRUE(by_name.count(name)) << name;
  EXPECT_EQ(by_name["sb.magic"], std::vector<uint64_t>{0x73717368});
  EXPECT_EQ(by_name["sb.block_size"], std::vector<uint64_t>{4096});
  // The tree's symlinks: "a" (1 byte) and a 307-byte target.
  std::set<uint64_t> links(by_name["symlink.size"].begin(),
                           by_name["symlink.size"].end());
  EXPECT_EQ(links, (std::set<uint64_t>{1, 307}));
  // Every inode number from 1 to the count, once.
  std::set<uint64_t> numbers(by_name["inode.number"].begin(),
                             by_name["inode.number"].end());
  EXPECT_EQ(numbers.size(), by_name["sb.inodes"][0]);
  EXPECT_EQ(*numbers.begin(), 1u);
  // The inode and directory tables' blocks are stored uncompressed (bit
  // 15 of their length words set): their fields are in the map above.
  int uncompressed = 0;
  for (uint64_t w : by_name["metadata.length"])
    uncompressed += (w & 0x8000) != 0;
  EXPECT_GE(uncompressed, 2);
}

// The seed with xattrs: the xattr id table's entries and the xattrs'
// headers, as mksquashfs wrote them (seeds.cc: eight user.* xattrs, one
// 600-byte value stored once and referenced out of line by both files).
TEST(ImageFields, MapReachesTheXattrTable) {
  const SeedImage& seed = Seed("raw-4k-xattrs");
  ASSERT_FALSE(seed.bytes.empty()) << "no xattr seed (user.* xattrs refused?)";
  ImageFields map = ParseImageFields(seed.bytes);
  std::map<std::string, std::vector<uint64_t>> by_name;
  for (const ImageField& f : map.fields)
    by_name[f.name].push_back(f.Read(seed.bytes));
  for (const char* name :
       {"xattr.table_start", "xattr.ids", "xattr_id.index", "xattr_id.entry",
        "xattr.type", "xattr.name_size", "xattr.value_size", "xattr.value_ref"})
    EXPECT_TRUE(by_name.count(name)) << name;
  // Each key as written: the shared value referenced from both files.
  std::multiset<uint64_t> sizes(by_name["xattr.name_size"].begin(),
                                by_name["xattr.name_size"].end());
  EXPECT_EQ(sizes.count(6), 2u) << "user.shared: \"shared\" twice";
  EXPECT_EQ(sizes.count(5), 1u) << "user.empty";
  EXPECT_EQ(sizes.count(1), 1u) << "user.b";
  std::set<uint64_t> values(by_name["xattr.value_size"].begin(),
                            by_name["xattr.value_size"].end());
  EXPECT_TRUE(values.count(600)) << "the shared value, stored once";
  EXPECT_TRUE(values.count(8)) << "its 8-byte references";
  EXPECT_TRUE(values.count(0)) << "user.empty";
  EXPECT_TRUE(values.count(16)) << "user.checksum";
  EXPECT_EQ(by_name["xattr.value_ref"].size(), 2u);
}

TEST(ImageFields, ParsingAnyBytesStaysInside) {
  std::vector<uint8_t> image = RawSeed().bytes;
  ImageMutator m(7);
  for (int i = 0; i < 300; i++) {
    m.Mutate(&image, image.size());
    ImageFields map = ParseImageFields(image);
    for (const ImageField& f : map.fields)
      for (size_t at : f.at) ASSERT_LT(at, image.size()) << f.name;
    if (image.size() < 200) image = RawSeed().bytes;
  }
  std::vector<uint8_t> ones(4096, 0xff);
  EXPECT_FALSE(ParseImageFields(ones).fields.empty());  // the superblock
  EXPECT_TRUE(ParseImageFields(std::vector<uint8_t>(10, 0)).fields.empty());
}

TEST(ImageMutator, DeterministicAndChanging) {
  const std::vector<uint8_t>& seed = RawSeed().bytes;
  std::vector<uint8_t> a = seed, b = seed;
  std::vector<std::string> what_a, what_b;
  ImageMutator ma(42), mb(42);
  int changed = 0;
  for (int i = 0; i < 50; i++) {
    a = seed;
    b = seed;
    what_a.clear();
    what_b.clear();
    ma.Mutate(&a, a.size(), &what_a);
    mb.Mutate(&b, b.size(), &what_b);
    ASSERT_EQ(a, b);
    ASSERT_EQ(what_a, what_b);
    EXPECT_FALSE(what_a.empty());
    changed += a != seed;
    EXPECT_LE(a.size(), seed.size());
  }
  EXPECT_GE(changed, 40);  // a field set to its own value changes nothing
}

}  // namespace
}  // namespace squashlab
