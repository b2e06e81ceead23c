// SPDX-License-Identifier: GPL-2.0-only
// This file tests the image generator: the matrix covers every axis, the
// same shape gives the same bytes, the reader finds exactly the generated
// tree in the images, the default set holds the layouts verify needs
// (sparse, uncompressed and compressed blocks, tails in shared fragments
// behind full blocks, compressor options), a producer's failure is
// reported with its command and output, and the cache builds once per key.
#include "harness/images/images.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <span>
#include <sstream>

#include "harness/images/content.h"
#include "reader/image.h"

namespace squashlab::images {
namespace {

namespace fs = std::filesystem;

std::string TestDir(const std::string& name) {
  const char* t = std::getenv("TEST_TMPDIR");
  fs::path p = fs::path(t ? t : "/tmp") / name;
  fs::create_directories(p);
  return p.string();
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Each shape's image, built once per test run (in the test's own cache).
std::string Image(const std::string& name) {
  setenv("SQUASHLAB_CACHE", TestDir("cache").c_str(), 1);
  const Shape* s = FindShape(name);
  EXPECT_NE(s, nullptr) << name;
  auto path = CachedImage(*s);
  EXPECT_TRUE(path.ok()) << path.status().ToString();
  return path.ok() ? *path : "";
}

TEST(ShapeMatrix, NamesAreUniqueAndDescribed) {
  std::set<std::string> names;
  for (const Shape& s : AllShapes()) {
    EXPECT_TRUE(names.insert(s.name).second) << s.name;
    EXPECT_FALSE(s.summary.empty()) << s.name;
    EXPECT_FALSE(s.parts.empty()) << s.name;
    EXPECT_NE(s.codec, "lzma") << s.name << ": the kernel does not read lzma";
  }
  EXPECT_GE(names.size(), 20u);
  EXPECT_LE(names.size(), 40u);
  EXPECT_EQ(FindShape("no-such-shape"), nullptr);
}

TEST(ShapeMatrix, CoversEveryAxis) {
  std::set<uint32_t> blocks;
  std::set<std::string> plain, with_options, options;
  std::set<Producer> producers;
  for (const Shape& s : AllShapes()) {
    blocks.insert(s.block_size);
    (s.codec_options.empty() ? plain : with_options).insert(s.codec);
    options.insert(s.options.begin(), s.options.end());
    producers.insert(s.producer);
  }
  EXPECT_EQ(blocks, (std::set<uint32_t>{4096, 8192, 65536, 131072, 1048576}));
  const std::set<std::string> codecs = {"gzip", "lz4", "lzo", "xz", "zstd"};
  EXPECT_EQ(plain, codecs);
  EXPECT_EQ(with_options, codecs);
  for (const char* o : {"-tailends", "-no-fragments", "-always-use-fragments",
                        "-noD", "-noF", "-noI", "--no-tail-packing"})
    EXPECT_TRUE(options.count(o)) << o;
  EXPECT_EQ(producers.size(), 3u);
}

TEST(ShapeMatrix, DefaultSetIsSmallAndKnown) {
  const auto& d = DefaultShapes();
  EXPECT_GE(d.size(), 3u);
  EXPECT_LE(d.size(), 5u);
  for (const std::string& n : d) EXPECT_NE(FindShape(n), nullptr) << n;
}

TEST(BuildImage, SameShapeGivesTheSameBytes) {
  for (const char* name : {"gzip-8k", "ng-lz4-4k-hc", "ng-zstd-8k-packfile"}) {
    const std::string dir = TestDir("twice");
    auto a = BuildImage(*FindShape(name), dir + "/a.sqfs");
    auto b = BuildImage(*FindShape(name), dir + "/b.sqfs");
    ASSERT_TRUE(a.ok() && b.ok()) << name;
    const std::string bytes = Slurp(*a);
    EXPECT_GT(bytes.size(), 4096u);
    EXPECT_TRUE(bytes == Slurp(*b)) << name << ": two builds differ";
    // Nothing is left beside the image.
    EXPECT_EQ(std::distance(fs::directory_iterator(dir), {}), 2) << name;
  }
}

std::string FileBytes(const Entry& e) {
  std::string s(e.size, '\0');
  FillBytes(e, 0, reinterpret_cast<uint8_t*>(s.data()), s.size());
  return s;
}

using Xattrs = std::vector<std::pair<std::string, std::string>>;

// The reader finds every entry of the shape's tree, as generated.
void ExpectTree(const Shape& shape, squashlab::Image& img) {
  const bool pack = shape.producer == Producer::kGensquashfsPackFile;
  std::map<std::string, uint32_t> inode_of;
  for (const Entry& e : MakeTree(shape).entries) {
    SCOPED_TRACE(shape.name + ": " + e.path);
    auto ino = img.Lookup(e.path);
    ASSERT_TRUE(ino.ok()) << ino.status().ToString();
    inode_of[e.path] = ino->inode_number;
    if (e.kind == EntryKind::kHardLink) {
      EXPECT_EQ(ino->inode_number, inode_of[e.target]);
      continue;
    }
    EXPECT_EQ(ino->permissions, e.mode);
    EXPECT_EQ(ino->mtime, pack ? kBaseTime : e.mtime);
    EXPECT_EQ(*img.Uid(*ino), pack ? e.uid : 0u);
    if (e.kind == EntryKind::kSymlink) {
      EXPECT_EQ(ino->symlink_target, e.target);
    }
    if (e.kind == EntryKind::kFile) {
      std::string got(e.size, '\0');
      auto n =
          img.ReadFile(*ino, 0,
                       std::span<uint8_t>(
                           reinterpret_cast<uint8_t*>(got.data()), got.size()));
      ASSERT_TRUE(n.ok());
      EXPECT_TRUE(got == FileBytes(e)) << "content differs";
    }
    Xattrs want, have;
    for (const XattrPair& x : e.xattrs) want.emplace_back(x.name, x.value);
    auto listed = img.ListXattrs(*ino);
    ASSERT_TRUE(listed.ok());
    for (const Xattr& x : *listed) have.emplace_back(x.name, x.value);
    std::sort(want.begin(), want.end());
    std::sort(have.begin(), have.end());
    EXPECT_EQ(have, want);
  }
}

TEST(BuildImage, TheReaderFindsTheGeneratedTree) {
  std::vector<std::string> names = DefaultShapes();
  names.push_back("ng-zstd-8k-packfile");
  names.push_back("gzip-128k-nested");
  for (const std::string& name : names) {
    auto img = squashlab::Image::Open(Image(name));
    ASSERT_TRUE(img.ok()) << name;
    ExpectTree(*FindShape(name), **img);
  }
}

// The check BuildImage runs on every image: the built tree passes; the
// same image against a tree with one byte, one size or one symlink target
// changed, one entry more, or a hard link to another file, does not.
TEST(CheckImageHoldsTree, FindsTheTreeAndOnlyIt) {
  const Shape& shape = *FindShape("gzip-128k");
  const std::string path = Image(shape.name);
  const Tree tree = MakeTree(shape);
  EXPECT_TRUE(CheckImageHoldsTree(path, tree).ok());
  const auto changed = [&](const std::function<bool(Entry&)>& change) {
    Tree t = tree;
    for (Entry& e : t.entries) {
      if (change(e)) return CheckImageHoldsTree(path, t);
    }
    return Status::InvalidArgument("nothing to change");
  };
  const Status seed = changed([](Entry& e) {
    if (e.kind != EntryKind::kFile || e.size < 2 * 131072 ||
        e.fill != Fill::kBinary)
      return false;
    e.seed ^= 1;
    return true;
  });
  EXPECT_EQ(seed.code(), StatusCode::kCorruption) << seed.ToString();
  EXPECT_NE(seed.message().find("differs"), std::string::npos)
      << seed.ToString();
  const Status size = changed([](Entry& e) {
    if (e.kind != EntryKind::kFile || e.size == 0) return false;
    e.size -= 1;
    return true;
  });
  EXPECT_NE(size.message().find("bytes, not"), std::string::npos)
      << size.ToString();
  const Status target = changed([](Entry& e) {
    if (e.kind != EntryKind::kSymlink) return false;
    e.target += "x";
    return true;
  });
  EXPECT_NE(target.message().find("symlink target differs"), std::string::npos)
      << target.ToString();
  Tree more = tree;
  Entry absent;
  absent.path = "not-there";
  more.entries.push_back(absent);
  const Status missing = CheckImageHoldsTree(path, more);
  EXPECT_NE(missing.message().find("/not-there"), std::string::npos)
      << missing.ToString();

  // Hard links: only the pack-file shape has them.
  const Shape& pack = *FindShape("ng-zstd-8k-packfile");
  Tree linked = MakeTree(pack);
  const std::string pack_path = Image(pack.name);
  EXPECT_TRUE(CheckImageHoldsTree(pack_path, linked).ok());
  const auto link = std::find_if(
      linked.entries.begin(), linked.entries.end(),
      [](const Entry& e) { return e.kind == EntryKind::kHardLink; });
  ASSERT_NE(link, linked.entries.end());
  const auto other = std::find_if(
      linked.entries.begin(), linked.entries.end(), [&](const Entry& e) {
        return e.kind == EntryKind::kFile && e.path != link->target;
      });
  ASSERT_NE(other, linked.entries.end());
  link->target = other->path;
  const Status relinked = CheckImageHoldsTree(pack_path, linked);
  EXPECT_NE(relinked.message().find("not a link to " + other->path),
            std::string::npos)
      << relinked.ToString();
}

struct Layouts {
  int sparse = 0, raw = 0, compressed = 0, fragment_only = 0;
  int raw_fragment_tails = 0;
  int blocks_and_fragment_tail = 0;
  // Per fragment block: the files with a tail there, and how many of them
  // have full blocks too.
  std::map<uint32_t, std::pair<int, int>> fragment_users;
};

Layouts Survey(const std::string& name) {
  Layouts l;
  auto img = squashlab::Image::Open(Image(name));
  EXPECT_TRUE(img.ok()) << name;
  for (const Entry& e : MakeTree(*FindShape(name)).entries) {
    if (e.kind != EntryKind::kFile || !img.ok()) continue;
    auto ino = (*img)->Lookup(e.path);
    auto layout = (*img)->Layout(*ino);
    for (const StoredBlock& b : layout->blocks)
      (b.stored_size == 0 ? l.sparse : b.compressed ? l.compressed : l.raw)++;
    if (!layout->has_tail) continue;
    l.raw_fragment_tails += !layout->fragment.compressed;
    auto& [files, multi] = l.fragment_users[layout->fragment_index];
    files++;
    multi += !layout->blocks.empty();
    (layout->blocks.empty() ? l.fragment_only : l.blocks_and_fragment_tail)++;
  }
  return l;
}

TEST(BuildImage, TheDefaultSetHoldsTheLayoutsVerifyReads) {
  Layouts plain = Survey("gzip-128k");
  EXPECT_GT(plain.sparse, 0);
  EXPECT_GT(plain.raw, 0);
  EXPECT_GT(plain.compressed, 0);
  EXPECT_GT(plain.fragment_only, 10);
  EXPECT_EQ(plain.blocks_and_fragment_tail, 0) << "mksquashfs's default";
  // Fragment blocks shared by many files' tails, and by the tails of
  // multi-block files (mksquashfs packs those apart from small files).
  Layouts tails = Survey("gzip-128k-tailends");
  EXPECT_GE(tails.blocks_and_fragment_tail, 8);
  bool many_small = false, many_multi = false;
  std::string seen;
  for (const auto& [fragment, users] : tails.fragment_users) {
    many_small |= users.first >= 20;
    many_multi |= users.second >= 4;
    seen +=
        " " + std::to_string(users.first) + "/" + std::to_string(users.second);
  }
  EXPECT_TRUE(many_small && many_multi)
      << "want a fragment block of 20 files' tails and one of 4 multi-block "
         "files' tails; files/multi-block per fragment:"
      << seen;
  EXPECT_GT(Survey("gzip-8k").compressed, 20);
  auto xz = squashlab::Image::Open(Image("xz-64k-opts"));
  ASSERT_TRUE(xz.ok());
  EXPECT_TRUE((*xz)->compressor_options().present);
  EXPECT_EQ((*xz)->superblock().compressor, CompressorId::kXz);
}

TEST(BuildImage, ShapesHoldWhatTheirSummariesSay) {
  Layouts random = Survey("gzip-128k-random");
  EXPECT_EQ(random.compressed, 0);
  EXPECT_GT(random.raw, 0);
  EXPECT_GT(random.raw_fragment_tails, 20) << "uncompressed fragment blocks";
  Layouts raw = Survey("gzip-128k-raw-data");
  EXPECT_EQ(raw.compressed, 0);
  EXPECT_GT(raw.raw_fragment_tails, 20);
  auto img = squashlab::Image::Open(Image("gzip-128k-bigdir"));
  ASSERT_TRUE(img.ok());
  auto many = (*img)->Lookup("many");
  ASSERT_TRUE(many.ok());
  EXPECT_GT(many->dir_index_count, 1) << "a directory index";
  auto entries = (*img)->ReadDir(*many);
  ASSERT_TRUE(entries.ok());
  EXPECT_EQ(entries->size(), 702u);
}

TEST(BuildImage, AProducerFailureNamesTheCommandAndWhatItPrinted) {
  Shape bad = *FindShape("gzip-4k-tailends");
  bad.options.push_back("-no-such-option");
  const std::string dir = TestDir("bad");
  auto r = BuildImage(bad, dir + "/bad.sqfs");
  ASSERT_FALSE(r.ok());
  const std::string& m = r.status().message();
  EXPECT_NE(m.find("`mksquashfs "), std::string::npos) << m;
  EXPECT_NE(m.find("-no-such-option"), std::string::npos) << m;
  EXPECT_NE(m.find("exited with status"), std::string::npos) << m;
  EXPECT_TRUE(fs::is_empty(dir)) << "a failed build leaves nothing";
}

TEST(CachedImage, BuildsOncePerKey) {
  const std::string cache = TestDir("cache-once");
  setenv("SQUASHLAB_CACHE", cache.c_str(), 1);
  EXPECT_EQ(ImageCacheDir(), cache + "/images");
  Shape s = *FindShape("gzip-4k-tailends");
  fs::create_directories(cache + "/images");
  const std::string stale =
      cache + "/images/gzip-4k-tailends-0123456789abcdef.sqfs";
  std::ofstream(stale) << "old";
  auto first = CachedImage(s);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_FALSE(fs::exists(stale)) << "an image of an older key is removed";
  const auto built = fs::last_write_time(*first);
  auto again = CachedImage(s);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, *first);
  EXPECT_EQ(fs::last_write_time(*again), built) << "built twice";
  s.codec_options = {"-Xcompression-level", "1"};
  EXPECT_NE(*ImageKey(s), *ImageKey(*FindShape("gzip-4k-tailends")));
}

}  // namespace
}  // namespace squashlab::images
