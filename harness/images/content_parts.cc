// SPDX-License-Identifier: GPL-2.0-only
// This file implements the parts of the generated trees: which files,
// directories, links and xattrs each part adds, with sizes at page and
// block boundaries of the shape's block size.
#include <cstdio>
#include <string>

#include "harness/images/tree_builder.h"

namespace squashlab::images {
namespace {

constexpr uint64_t P = kPageSize;

// Never more than 128K: keeps random and duplicated bytes of 1M shapes small.
uint64_t Capped(uint64_t bs) { return bs < 131072 ? bs : 131072; }

std::string Numbered(const char* prefix, int i, int width) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s%0*d", prefix, width, i);
  return buf;
}

void AddBoundaries(TreeBuilder& b) {
  const uint64_t B = b.block_size();
  b.File("empty", 0, Fill::kBinary);
  b.File("one-byte", 1, Fill::kText);
  b.File("page-minus-1", P - 1, Fill::kText);
  b.File("page", P, Fill::kBinary);
  b.File("page-plus-1", P + 1, Fill::kBinary);
  b.File("three-pages", 3 * P, Fill::kBinary).mode = 0755;
  b.File("block-minus-1", B - 1, Fill::kText);
  b.File("block", B, Fill::kBinary);
  b.File("block-plus-1", B + 1, Fill::kBinary);
  b.File("two-blocks-page-plus-1", 2 * B + P + 1, Fill::kBinary);
  b.File("two-blocks-minus-page", 2 * B - P, Fill::kText).mode = 0600;
}

// Small files whose tails fill fragment blocks together, some of them
// behind a full block, and multi-block files whose last partial block is a
// tail (in a fragment with -tailends, beside the small files' tails).
void AddTails(TreeBuilder& b) {
  const uint64_t B = b.block_size();
  for (int i = 0; i < 32; i++) {
    uint64_t size = 1 + (static_cast<uint64_t>(i) * i * 37 + i * 911) % 3000;
    if (i % 8 == 3) size += B;  // a full block, then a tail among the others
    Fill fill =
        i % 8 == 5 ? Fill::kRandom : (i % 2 ? Fill::kText : Fill::kBinary);
    b.File(Numbered("tail-", i, 2), size, fill);
  }
  b.File("multi-1-and-page-plus-3", B + P + 3, Fill::kBinary);
  b.File("multi-1-and-half-plus-7", B + B / 2 + 7, Fill::kText);
  b.File("multi-2-minus-1", 2 * B - 1, Fill::kBinary);
}

void AddSparse(TreeBuilder& b) {
  const uint64_t B = b.block_size();
  auto holey = [&](const char* name, uint64_t size,
                   std::vector<uint64_t> holes) {
    Entry& e = b.File(name, size, Fill::kBinary);
    e.hole_size = b.block_size();
    e.holes = std::move(holes);
  };
  holey("sparse-first-block", B + 100, {0});
  holey("sparse-middle-block", 3 * B + 500, {1});
  holey("sparse-last-block", 2 * B, {1});
  b.File("sparse-all", 3 * B, Fill::kZero);
  b.File("sparse-all-with-tail", 2 * B + 3000, Fill::kZero);
  b.File("zero-page", P, Fill::kZero);
}

void AddIncompressible(TreeBuilder& b) {
  const uint64_t B = b.block_size();
  b.File("random-multi", 2 * Capped(B) + 777, Fill::kRandom);
  b.File("random-block", B, Fill::kRandom);
  b.File("random-small", 1500, Fill::kRandom);
  b.File("random-page", P, Fill::kRandom);
}

void AddText(TreeBuilder& b) {
  b.File("text-small", 900, Fill::kText);
  b.File("text-multi", 3 * uint64_t{b.block_size()} / 2 + 11, Fill::kText);
}

void AddDuplicates(TreeBuilder& b) {
  const uint64_t size = Capped(b.block_size()) + 123;
  uint64_t seed = b.File("dup-a", size, Fill::kBinary).seed;
  b.File("dup-b", size, Fill::kBinary).seed = seed;
  seed = b.File("dup-small-a", 333, Fill::kText).seed;
  b.File("dup-small-b", 333, Fill::kText).seed = seed;
}

void AddSubdirs(TreeBuilder& b) {
  b.Dir("sub");
  b.File("sub/inner", 5000, Fill::kText);
  b.File("sub/block-plus-5", b.block_size() + 5, Fill::kBinary);
  b.File("sub/deeper/leaf", 10, Fill::kText);
  b.Dir("sub/empty").mode = 0700;
}

// A target of `len` bytes: path segments, the last one cut.
std::string LongTarget(size_t len, int salt) {
  std::string t;
  for (int i = 0; t.size() < len; i++) t += Numbered("seg", i + salt, 4) + "/";
  t.resize(len);
  if (t.back() == '/') t.back() = 'x';
  return t;
}

void AddSymlinks(TreeBuilder& b) {
  b.Symlink("link-to-page", "page");
  b.Symlink("link-absolute", "/etc/hostname");
  b.Symlink("link-dangling", "no/such/file");
  b.Symlink("link-to-dir", "sub");
  b.Symlink("link-long", LongTarget(1000, 0));
  b.Symlink("link-dir/up", "../one-byte");
}

// Targets from 1 to 4095 bytes: the inode table's blocks end inside them.
void AddManySymlinks(TreeBuilder& b) {
  for (int i = 0; i < 160; i++) {
    size_t len = 1 + static_cast<size_t>(i) * 4094 / 159;
    b.Symlink(Numbered("links/l-", i, 3), LongTarget(len, i));
  }
}

std::string Binary64() {
  std::string v(64, '\0');
  for (int i = 0; i < 64; i++) v[i] = static_cast<char>(i * 4);
  return v;
}

void AddXattrs(TreeBuilder& b) {
  for (int i = 1; i <= 3; i++) {
    Entry& e = b.File(Numbered("xa-shared-", i, 1), 100, Fill::kText);
    e.xattrs = {{"user.shared", "one value shared by three files"},
                {"user.class", "a"}};
  }
  b.File("xa-binary", 2000, Fill::kBinary).xattrs = {{"user.bin", Binary64()},
                                                     {"user.n", "1"}};
  std::string long_value(1500, 'v');
  for (size_t i = 0; i < long_value.size(); i += 7) long_value[i] = 'w';
  b.File("xa-long", b.block_size() + 10, Fill::kBinary).xattrs = {
      {"user.long", long_value}, {"user.long-again", long_value}};
  b.File("xa-empty-value", 0, Fill::kText).xattrs = {{"user.empty", ""}};
  b.Dir("xa-dir").xattrs = {{"user.dir", "directory"}};
  b.File("xa-dir/file", 10, Fill::kText).xattrs = {{"user.inside", "x"}};
}

void AddManyXattrs(TreeBuilder& b) {
  for (int i = 0; i < 600; i++) {
    Entry& e = b.File(Numbered("xattrs/f-", i, 3), i % 40, Fill::kText);
    e.xattrs = {{"user.id", Numbered("value-", i, 4)}, {"user.common", "c"}};
    if (i % 100 == 0) e.xattrs.push_back({"user.big", std::string(2000, 'b')});
  }
}

void AddBigDir(TreeBuilder& b) {
  for (int i = 0; i < 700; i++)
    b.File(Numbered("many/entry-with-a-longish-name-", i, 4), (i * 7) % 100,
           Fill::kText);
  b.File("many/" + std::string(255, 'n'), 255, Fill::kText);
  b.File("many/zz-subdir/file", 20, Fill::kText);
}

void AddNestedOnly(TreeBuilder& b) {
  b.File("a/b/file", 5000, Fill::kText);
  b.File("a/b/c/d/e/deep", b.block_size() + 3, Fill::kBinary);
  b.Dir("x/y/z/empty");
  b.File("q/only-dirs/inner/last", 1, Fill::kText);
}

void AddLarge(TreeBuilder& b) {
  b.File("large-6m-plus-5", 6 * 1024 * 1024 + 5, Fill::kBinary);
  b.File("large-text-2m-page-plus-1", 2 * 1024 * 1024 + P + 1, Fill::kText);
}

void AddHardLinks(TreeBuilder& b) {
  b.File("hardlink-target", 2000, Fill::kText);
  b.HardLink("hardlink-1", "hardlink-target");
  b.HardLink("hard/hardlink-2", "hardlink-target");
  b.File("hardlink-multi", b.block_size() + P, Fill::kBinary);
  b.HardLink("hardlink-multi-again", "hardlink-multi");
}

// Few blocks, every layout: for block sizes where each block is 1M.
void AddOneOfEach(TreeBuilder& b) {
  const uint64_t B = b.block_size();
  b.File("empty", 0, Fill::kBinary);
  b.File("one-byte", 1, Fill::kText);
  b.File("page-plus-1", P + 1, Fill::kBinary);
  b.File("three-pages", 3 * P, Fill::kText);
  b.File("block", B, Fill::kBinary);
  b.File("block-and-page-plus-3", B + P + 3, Fill::kText);
  Entry& e = b.File("sparse-first-block", B + 100, Fill::kBinary);
  e.hole_size = b.block_size();
  e.holes = {0};
  b.File("sparse-all-with-tail", 2 * B + 3000, Fill::kZero);
  b.File("random-page", P, Fill::kRandom);
  for (int i = 0; i < 8; i++)
    b.File(Numbered("tail-", i, 2), 100 + 997 * i, Fill::kBinary);
}

}  // namespace

void AddPart(Part p, TreeBuilder& b) {
  switch (p) {
    case Part::kBoundaries:
      return AddBoundaries(b);
    case Part::kTails:
      return AddTails(b);
    case Part::kSparse:
      return AddSparse(b);
    case Part::kIncompressible:
      return AddIncompressible(b);
    case Part::kText:
      return AddText(b);
    case Part::kDuplicates:
      return AddDuplicates(b);
    case Part::kSubdirs:
      return AddSubdirs(b);
    case Part::kSymlinks:
      return AddSymlinks(b);
    case Part::kManySymlinks:
      return AddManySymlinks(b);
    case Part::kXattrs:
      return AddXattrs(b);
    case Part::kManyXattrs:
      return AddManyXattrs(b);
    case Part::kBigDir:
      return AddBigDir(b);
    case Part::kNestedOnly:
      return AddNestedOnly(b);
    case Part::kLarge:
      return AddLarge(b);
    case Part::kHardLinks:
      return AddHardLinks(b);
    case Part::kOneOfEach:
      return AddOneOfEach(b);
  }
}

}  // namespace squashlab::images
