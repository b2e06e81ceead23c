// SPDX-License-Identifier: GPL-2.0-only
// This file implements the request queue tests: back and front merges, the
// request size limit, a grown request absorbing its neighbour, and the
// READA / sync flags of merged requests.
#include "hw_emul/request_queue.h"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "hw_emul/bio_flags.h"
#include "model/kernel/bio.h"

namespace squashlab {
namespace {

struct Bios {
  std::vector<std::unique_ptr<bio>> all;
  bio* Make(uint64_t sector, unsigned bytes, int rw = READ) {
    all.push_back(std::make_unique<bio>());
    bio* b = all.back().get();
    b->id = all.size();
    b->bi_sector = sector;
    b->bi_size = bytes;
    b->bi_rw = rw;
    return b;
  }
};

TEST(RequestQueue, BackAndFrontMerges) {
  Bios bios;
  RequestQueue q(1 << 20);
  uint64_t seq = 0;
  int absorbed = 0;
  EXPECT_EQ(q.Add(bios.Make(8, 4096), 0, &seq, &absorbed), MergeKind::kNone);
  EXPECT_EQ(q.Add(bios.Make(16, 4096), 0, &seq, &absorbed), MergeKind::kBack);
  EXPECT_EQ(q.Add(bios.Make(0, 4096), 0, &seq, &absorbed), MergeKind::kFront);
  EXPECT_EQ(q.Add(bios.Make(100, 512), 0, &seq, &absorbed), MergeKind::kNone);
  ASSERT_EQ(q.size(), 2u);
  auto r = q.PopFront();
  EXPECT_EQ(r->sector, 0u);
  EXPECT_EQ(r->bytes, 3 * 4096u);
  ASSERT_EQ(r->bios.size(), 3u);
  EXPECT_EQ(r->bios[0]->bi_sector, 0u);  // sector order
  EXPECT_EQ(r->bios[1]->bi_sector, 8u);
  EXPECT_EQ(r->bios[2]->bi_sector, 16u);
  EXPECT_EQ(q.PopFront()->sector, 100u);
  EXPECT_EQ(q.PopFront(), nullptr);
}

TEST(RequestQueue, MergesStopAtTheRequestSizeLimit) {
  Bios bios;
  RequestQueue q(8192);
  uint64_t seq = 0;
  int absorbed = 0;
  q.Add(bios.Make(0, 4096), 0, &seq, &absorbed);
  EXPECT_EQ(q.Add(bios.Make(8, 4096), 0, &seq, &absorbed), MergeKind::kBack);
  EXPECT_EQ(q.Add(bios.Make(16, 4096), 0, &seq, &absorbed), MergeKind::kNone);
  EXPECT_EQ(q.size(), 2u);
  EXPECT_EQ(seq, 2u);
}

TEST(RequestQueue, AGapFilledJoinsBothNeighbours) {
  Bios bios;
  RequestQueue q(1 << 20);
  uint64_t seq = 0;
  int absorbed = 0;
  q.Add(bios.Make(0, 4096), 0, &seq, &absorbed);
  q.Add(bios.Make(16, 4096), 0, &seq, &absorbed);
  EXPECT_EQ(q.size(), 2u);
  EXPECT_EQ(q.Add(bios.Make(8, 4096), 0, &seq, &absorbed), MergeKind::kBack);
  EXPECT_EQ(absorbed, 1);
  ASSERT_EQ(q.size(), 1u);
  auto r = q.PopFront();
  EXPECT_EQ(r->sector, 0u);
  EXPECT_EQ(r->bytes, 3 * 4096u);
  EXPECT_EQ(r->bios[2]->bi_sector, 16u);
}

TEST(RequestQueue, ReadaOnlyWhileEveryBioIsReadahead) {
  Bios bios;
  RequestQueue q(1 << 20);
  uint64_t seq = 0;
  int absorbed = 0;
  q.Add(bios.Make(0, 512, READA), 0, &seq, &absorbed);
  EXPECT_TRUE(q.requests().front()->reada);
  EXPECT_FALSE(q.requests().front()->sync);
  q.Add(bios.Make(1, 512, READ_SYNC), 0, &seq, &absorbed);
  EXPECT_FALSE(q.requests().front()->reada);
  EXPECT_TRUE(q.requests().front()->sync);
}

}  // namespace
}  // namespace squashlab
