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

const SeedImage& RawSeed() {
  static const SeedImage* seed = [] {
    auto seeds = DefaultFuzzSeeds();
    EXPECT_TRUE(seeds.ok()) << seeds.status().ToString();
    for (SeedImage& s : *seeds)
      if (s.name == "raw-4k") return new SeedImage(s);
    return new SeedImage{};
  }();
  return *seed;
}

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
