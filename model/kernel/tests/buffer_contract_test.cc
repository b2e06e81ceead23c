// SPDX-License-Identifier: GPL-2.0-only
// This file implements the contract tests of buffer heads and bios.
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>

#include "model/kernel/bio.h"
#include "model/kernel/buffer_head.h"
#include "model/kernel/filemap.h"
#include "model/kernel/page.h"
#include "model/kernel/preempt.h"
#include "model/kernel/ram_disk.h"
#include "model/kernel/testing/contract.h"

namespace squashlab {
namespace {

using testing::RunTask;

std::vector<unsigned char> Medium() {
  std::vector<unsigned char> v(16 * 1024);
  for (size_t i = 0; i < v.size(); i++)
    v[i] = static_cast<unsigned char>(i * 7 + i / 1024);
  return v;
}

// A super_block over a RAM disk with 1 KiB blocks, owned by the run.
super_block* MakeSb(Kernel& k, RamDisk* disk) {
  super_block* sb = k.New<super_block>();
  sb->s_bdev = disk->bdev();
  sb->s_blocksize = 1024;
  sb->s_blocksize_bits = 10;
  return sb;
}

Report RunWithSb(std::function<void(super_block*)> body, RamDisk* disk,
                 KernelConfig config = {}) {
  auto holder = std::make_shared<super_block*>(nullptr);
  return RunTask([holder, body] { body(*holder); }, config,
                 [holder, disk](Kernel& k) { *holder = MakeSb(k, disk); });
}

TEST(BufferContract, LegalSyncReadIsSilentAndReadsTheMedium) {
  RamDisk disk(Medium());
  std::vector<unsigned char> want = Medium();
  EXPECT_SILENT(RunWithSb(
      [&want](super_block* sb) {
        buffer_head* bh[2] = {sb_getblk(sb, 3), sb_getblk(sb, 4)};
        ll_rw_block(READ, 2, bh);
        for (buffer_head* b : bh) {
          wait_on_buffer(b);
          ASSERT_TRUE(buffer_uptodate(b));
          EXPECT_EQ(std::memcmp(b->b_data, &want[b->b_blocknr * 1024], 1024),
                    0);
          brelse(b);
        }
        buffer_head* again = sb_getblk(sb, 3);
        EXPECT_EQ(again, bh[0]);  // one buffer_head per block
        EXPECT_TRUE(buffer_uptodate(again));
        put_bh(again);
      },
      &disk));
  EXPECT_EQ(disk.completed(), 2);
}

// sb_getblk's buffer is also in the CPU's bh LRU (a reference of its own):
// the second brelse takes the count to 0 silently, and the umount's
// invalidate_bh_lrus is the __brelse that finds it free.
TEST(BufferContract, BrelseOfFreeBuffer) {
  RamDisk disk(Medium());
  Report r = RunWithSb(
      [](super_block* sb) {
        buffer_head* bh = sb_getblk(sb, 1);
        brelse(bh);
        brelse(bh);
      },
      &disk);
  EXPECT_REPORT(r, ReportKind::kBrelseFreeBuffer);
  EXPECT_NE(r.body.find("VFS: brelse: Trying to free free buffer"),
            std::string::npos);
}

// put_bh is a silent atomic_dec: the count goes below the LRU's
// reference without a word; the warning comes from a later __brelse.
TEST(BufferContract, PutBhOfFreeBuffer) {
  RamDisk disk(Medium());
  Report r = RunWithSb(
      [](super_block* sb) {
        buffer_head* bh = sb_getblk(sb, 1);
        put_bh(bh);
        put_bh(bh);
        put_bh(bh);  // -1: silent
        get_bh(bh);  // back to 0
      },
      &disk);
  EXPECT_REPORT(r, ReportKind::kBrelseFreeBuffer);
  EXPECT_EQ(r.task, "");  // at umount (invalidate_bh_lrus), not in put_bh
}

TEST(BufferContract, UnlockOfUnlockedBuffer) {
  RamDisk disk(Medium());
  Report r = RunWithSb(
      [](super_block* sb) {
        buffer_head* bh = sb_getblk(sb, 1);
        unlock_buffer(bh);
        brelse(bh);
      },
      &disk, testing::LintConfig());
  EXPECT_REPORT(r, ReportKind::kBufferBug);  // lint: no kernel check
  EXPECT_TRUE(r.lint);
  EXPECT_NE(r.title.find("unlock_buffer of an unlocked buffer"),
            std::string::npos);
}

TEST(BufferContract, SubmitOfUnlockedBuffer) {
  RamDisk disk(Medium());
  Report r = RunWithSb(
      [](super_block* sb) {
        buffer_head* bh = sb_getblk(sb, 1);
        bh->b_end_io = end_buffer_read_sync;
        submit_bh(READ, bh);
      },
      &disk);
  EXPECT_REPORT(r, ReportKind::kBufferBug);
  EXPECT_NE(r.title.find("buffer_locked"), std::string::npos);
}

TEST(BufferContract, WaitOnBufferWithPreemptionDisabled) {
  RamDisk disk(Medium());
  Report r = RunWithSb(
      [](super_block* sb) {
        buffer_head* bh = sb_getblk(sb, 1);
        preempt_disable();
        wait_on_buffer(bh);  // not locked: might_sleep's report, no sleep
      },
      &disk);
  EXPECT_REPORT(r, ReportKind::kSleepInvalidContext);
}

TEST(BufferContract, BufferReferenceLeakAtQuiescence) {
  RamDisk disk(Medium());
  Report r = RunWithSb([](super_block* sb) { (void)sb_getblk(sb, 2); }, &disk,
                       testing::LintConfig());
  EXPECT_REPORT(r, ReportKind::kLeak);
  EXPECT_TRUE(r.lint);
}

TEST(BufferContract, ReadErrorLeavesBufferNotUptodate) {
  RamDisk disk(Medium());
  disk.set_fault([](const bio*) { return -EIO; });
  EXPECT_SILENT(RunWithSb(
      [](super_block* sb) { EXPECT_EQ(sb_bread(sb, 2), nullptr); }, &disk));
}

void CountingEndIo(bio* b, int) { bio_put(b); }

TEST(BioContract, LegalReadIntoPagesIsSilent) {
  RamDisk disk(Medium());
  std::vector<unsigned char> want = Medium();
  EXPECT_SILENT(RunTask([&disk, &want] {
    page* p = alloc_page(GFP_KERNEL);
    bio* b = bio_alloc(GFP_NOFS, 1);
    b->bi_bdev = disk.bdev();
    b->bi_sector = 8;
    ASSERT_EQ(bio_add_page(b, p, PAGE_SIZE, 0), static_cast<int>(PAGE_SIZE));
    EXPECT_EQ(submit_bio_wait(READ, b), 0);
    EXPECT_EQ(std::memcmp(page_address(p), &want[8 * 512], PAGE_SIZE), 0);
    bio_put(b);
    put_page(p);
  }));
}

TEST(BioContract, CompletionOfBioNotInFlight) {
  Report r = RunTask(
      [] {
        bio* b = bio_alloc(GFP_NOFS, 1);
        b->bi_end_io = CountingEndIo;
        bio_endio(b, 0);  // a driver completing what was never submitted
      },
      testing::LintConfig());
  EXPECT_REPORT(r, ReportKind::kBufferBug);
  EXPECT_TRUE(r.lint);
  EXPECT_NE(r.title.find("not in flight"), std::string::npos);
}

TEST(BioContract, BioLeakAtQuiescence) {
  Report r =
      RunTask([] { (void)bio_alloc(GFP_NOFS, 1); }, testing::LintConfig());
  EXPECT_REPORT(r, ReportKind::kLeak);
  EXPECT_TRUE(r.lint);
}

}  // namespace
}  // namespace squashlab
