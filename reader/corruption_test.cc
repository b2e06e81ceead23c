// SPDX-License-Identifier: GPL-2.0-only
// Hardening tests: truncated images, every superblock field set to hostile
// values, and single-byte corruption swept over the metadata tables. Each
// case must end in the right bytes or a clean error; run under ASan+UBSan by
// test.sh (tag "hardening"), so a crash or a leak fails the test.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "reader/full_scan.h"
#include "reader/image.h"
#include "testdata/expected_tree.h"

namespace squashlab {
namespace {

// Opens and scans; returns the first error, or ok.
Status OpenAndScan(std::vector<uint8_t> bytes, ScanStats* stats,
                   uint64_t max_file_bytes = ~0ull) {
  auto img = Image::OpenBytes(std::move(bytes));
  if (!img.ok()) return img.status();
  ScanLimits limits;
  limits.max_file_bytes = max_file_bytes;
  return ScanImage(img->get(), limits, stats);
}

void Put32(std::vector<uint8_t>* b, size_t off, uint32_t v) {
  for (int i = 0; i < 4; ++i)
    (*b)[off + i] = static_cast<uint8_t>(v >> (8 * i));
}
void Put16(std::vector<uint8_t>* b, size_t off, uint16_t v) {
  (*b)[off] = static_cast<uint8_t>(v);
  (*b)[off + 1] = static_cast<uint8_t>(v >> 8);
}
void Put64(std::vector<uint8_t>* b, size_t off, uint64_t v) {
  Put32(b, off, static_cast<uint32_t>(v));
  Put32(b, off + 4, static_cast<uint32_t>(v >> 32));
}

TEST(CorruptionTest, IntactImageScansCompletely) {
  ScanStats stats;
  Status s = OpenAndScan(testdata::ImageBytesOf("tree_zstd"), &stats);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(stats.inodes, 1037u);  // every inode once, the hard link twice
  EXPECT_GT(stats.file_bytes, 2000000u);
}

TEST(CorruptionTest, EveryTruncationIsACleanError) {
  const auto full = testdata::ImageBytesOf("tree_gzip");
  ScanStats ref;
  ASSERT_TRUE(OpenAndScan(full, &ref).ok());
  // bytes_used is below the padded size; any cut below it must fail.
  const uint64_t used = DecodeLe64(full.data() + 40);
  for (uint64_t len = 0; len < used; len += (len < 256 ? 1 : 61)) {
    std::vector<uint8_t> cut(full.begin(), full.begin() + len);
    ScanStats stats;
    Status s = OpenAndScan(cut, &stats);
    EXPECT_FALSE(s.ok()) << "truncated to " << len
                         << " bytes yet scanned cleanly";
  }
}

struct FieldCase {
  size_t offset;
  int width;
  uint64_t value;
  StatusCode want;
};

TEST(CorruptionTest, HostileSuperblockFieldsAreRejectedWithTheRightCode) {
  const auto full = testdata::ImageBytesOf("tree_gzip");
  const uint64_t size = full.size();
  const FieldCase cases[] = {
      {0, 4, 0x73717369, StatusCode::kCorruption},  // magic
      {4, 4, 0, StatusCode::kCorruption},           // inode count
      {12, 4, 4096, StatusCode::kCorruption},       // block size != 1 << log
      {12, 4, 0, StatusCode::kCorruption},
      {20, 2, 7, StatusCode::kUnsupported},  // compressor id
      {20, 2, 0, StatusCode::kUnsupported},
      {22, 2, 11, StatusCode::kCorruption},  // block log
      {22, 2, 21, StatusCode::kCorruption},
      {26, 2, 0, StatusCode::kCorruption},         // id count
      {28, 2, 3, StatusCode::kUnsupported},        // version major
      {30, 2, 1, StatusCode::kUnsupported},        // version minor
      {40, 8, size + 1, StatusCode::kCorruption},  // bytes used
      {48, 8, 0, StatusCode::kCorruption},         // id table
      {48, 8, ~0ull, StatusCode::kCorruption},
      {64, 8, 0, StatusCode::kCorruption},  // inode table
      {64, 8, size * 2, StatusCode::kCorruption},
      {72, 8, 5, StatusCode::kCorruption},           // directory table
      {80, 8, 1ull << 60, StatusCode::kCorruption},  // fragment table
      {88, 8, 1ull << 60, StatusCode::kCorruption},  // export table
  };
  for (const FieldCase& c : cases) {
    auto bytes = full;
    if (c.width == 2) Put16(&bytes, c.offset, static_cast<uint16_t>(c.value));
    if (c.width == 4) Put32(&bytes, c.offset, static_cast<uint32_t>(c.value));
    if (c.width == 8) Put64(&bytes, c.offset, c.value);
    auto img = Image::OpenBytes(bytes);
    ASSERT_FALSE(img.ok()) << "field at " << c.offset << " = " << c.value
                           << " was accepted";
    EXPECT_EQ(img.status().code(), c.want) << img.status().ToString();
  }
}

TEST(CorruptionTest, HugeCountsNeverAllocateTheirSize) {
  // CVE-2023-52933 class: an xattr id count of 0xFFFFFF1F and a fragment
  // count of 2^32-1 must fail on bounds, not on an allocation.
  auto bytes = testdata::ImageBytesOf("tree_raw");
  const uint64_t xattr_ids = DecodeLe64(bytes.data() + 56);
  Put32(&bytes, xattr_ids + 8, 0xFFFFFF1F);
  EXPECT_EQ(Image::OpenBytes(bytes).status().code(), StatusCode::kCorruption);
  bytes = testdata::ImageBytesOf("tree_raw");
  Put32(&bytes, 16, 0xFFFFFFFF);
  EXPECT_EQ(Image::OpenBytes(bytes).status().code(), StatusCode::kCorruption);
}

TEST(CorruptionTest, TotalByteCapStopsHardLinkAmplification) {
  // Found by image_fuzzer: a valid 8 KiB image whose 3000 hard links name one
  // 4 MiB sparse file. Without a total cap a scan reads 12 GB.
  std::ifstream f("fuzz/findings/scan_amplification_hardlinks.sqfs",
                  std::ios::binary);
  std::vector<uint8_t> bytes(std::istreambuf_iterator<char>(f), {});
  ASSERT_GT(bytes.size(), 0u);
  auto img = Image::OpenBytes(bytes);
  ASSERT_TRUE(img.ok()) << img.status().ToString();
  ScanLimits limits;
  limits.max_total_bytes = 64 << 20;
  ScanStats stats;
  Status s = ScanImage(img->get(), limits, &stats);
  EXPECT_TRUE(s.ok()) << s.ToString();
  EXPECT_GE(stats.inodes, 3000u) << "every inode is still visited";
  EXPECT_LE(stats.file_bytes,
            limits.max_total_bytes + (*img)->superblock().block_size);
}

TEST(CorruptionTest, DirectoryLoopIsDetectedNotFollowed) {
  // Point /d0/d1's listing at the root's listing (raw metadata lets us patch
  // the inode in place): /d0/d1 then lists d0 again.
  auto bytes = testdata::ImageBytesOf("tree_raw");
  auto img = Image::OpenBytes(bytes);
  ASSERT_TRUE(img.ok());
  auto root = (*img)->Root();
  auto d1 = (*img)->Lookup("/d0/d1");
  ASSERT_TRUE(root.ok() && d1.ok());
  ASSERT_FALSE(d1->extended);
  const uint64_t inode_table = (*img)->superblock().inode_table_start;
  const uint64_t pos = inode_table + (d1->ref >> 16) + 2 + (d1->ref & 0xffff);
  ASSERT_LT((d1->ref & 0xffff) + 28, 8192u)
      << "inode must not straddle a block for this patch";
  Put32(&bytes, pos + 16, root->dir_start_block);
  Put16(&bytes, pos + 24, static_cast<uint16_t>(root->dir_file_size));
  Put16(&bytes, pos + 26, root->dir_offset);
  ScanStats stats;
  Status s = OpenAndScan(bytes, &stats, 0);
  EXPECT_EQ(s.code(), StatusCode::kCorruption) << s.ToString();
  EXPECT_NE(s.message().find("loop"), std::string::npos) << s.ToString();
}

// Flips one byte at a time over a region (every byte, or an even sample of
// at most kMaxFlips of them) and scans. gtest spreads the cases over shards.
#if defined(__SANITIZE_ADDRESS__)
// Under ASan each scan costs ~10x: a sparser sweep keeps CI inside budget.
constexpr uint64_t kMaxFlips = 700;
#else
constexpr uint64_t kMaxFlips = 2500;
#endif

void SweepFlips(const std::string& name, bool whole_image) {
  const auto full = testdata::ImageBytesOf(name);
  ScanStats ref;
  ASSERT_TRUE(OpenAndScan(full, &ref, 4096).ok());
  const uint64_t start =
      whole_image ? 0 : DecodeLe64(full.data() + 64);  // inode table
  const uint64_t end = DecodeLe64(full.data() + 40);
  const uint64_t stride = (end - start + kMaxFlips - 1) / kMaxFlips;
  uint64_t errors = 0, clean = 0;
  for (uint64_t off = start; off < end; off += stride) {
    auto bytes = full;
    bytes[off] ^= 0x5A;
    ScanStats stats;
    (OpenAndScan(bytes, &stats, 4096).ok() ? clean : errors)++;
  }
  // Most flips in the tables must be noticed; a few (an mtime, a mode bit,
  // padding) are legitimately invisible.
  EXPECT_GT(errors, 0u);
  std::printf("%s: %llu flips, %llu rejected, %llu scanned cleanly\n",
              name.c_str(), static_cast<unsigned long long>(errors + clean),
              static_cast<unsigned long long>(errors),
              static_cast<unsigned long long>(clean));
}

TEST(CorruptionTest, ByteFlipsInCompressedTables) {
  SweepFlips("tree_zstd", false);
}
TEST(CorruptionTest, ByteFlipsInRawTables) { SweepFlips("tree_raw", false); }
TEST(CorruptionTest, ByteFlipsAnywhereInASmallImage) {
  SweepFlips("tree_xz", true);
}

}  // namespace
}  // namespace squashlab
