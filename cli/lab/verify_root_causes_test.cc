// SPDX-License-Identifier: GPL-2.0-only
// This file implements the tests of the root-cause grouping: classes of
// several cells with one cause are one group, whatever their titles; a
// class found with two causes is in both; titles that differ only in the
// function merge; the seed thread's reports are matched by title.
#include "cli/lab/verify_root_causes.h"

#include <gtest/gtest.h>

namespace squashlab::cli {
namespace {

ClassFinding Finding(ReportKind kind, const std::string& title,
                     const std::string& cause_key, long steps) {
  ClassFinding f;
  f.scenario = "async-2013/single/rand";
  f.first_run = 1;
  f.failure.report.kind = kind;
  f.failure.report.title = title;
  f.minimised = f.failure;
  for (long i = 0; i < steps; i++)  // a token as long as the schedule
    f.minimised.choices.push_back(static_cast<int>(i % 2));
  f.root.key = cause_key;
  f.root.first_title = title;
  return f;
}

CellResult Cell(const std::string& decomp, std::vector<ClassFinding> found) {
  CellResult c;
  c.variant = "v";
  c.decomp = decomp;
  c.found = !found.empty();
  c.classes = std::move(found);
  return c;
}

const char kUaf[] = "BUG: KASAN: use-after-free in ";
const char kNull[] =
    "BUG: unable to handle kernel NULL pointer dereference in ";

TEST(VerifyRootCauses, GroupsClassesOfOneCauseAcrossCells) {
  VerifyResult r;
  r.cells.push_back(
      Cell("single",
           {Finding(ReportKind::kUseAfterFree, std::string(kUaf) + "a",
                    "freed|x|y", 50),
            Finding(ReportKind::kNullDereference,
                    std::string(kNull) + "zlib_uncompress", "freed|x|y", 40),
            Finding(ReportKind::kHungTask,
                    "INFO: task dd blocked for more than 120 "
                    "seconds.",
                    "first|hung-task", 10)}));
  r.cells.push_back(
      Cell("multi",
           {Finding(ReportKind::kUseAfterFree, std::string(kUaf) + "b",
                    "freed|x|y", 30),
            Finding(ReportKind::kNullDereference,
                    std::string(kNull) + "zlib_uncompress", "freed|p|q", 20)}));
  const std::vector<RootCauseGroup> g = GroupByRootCause(r);
  ASSERT_EQ(g.size(), 3u);
  // The widest first: three classes of the object of sites x, y.
  EXPECT_EQ(g[0].cause.key, "freed|x|y");
  EXPECT_EQ(g[0].classes.size(), 3u);
  EXPECT_EQ(g[0].cells, (std::vector<std::string>{"v x single", "v x multi"}));
  EXPECT_EQ(g[0].classes[g[0].repro].minimised->choices.size(), 30u);
  ASSERT_EQ(g[0].seed_oopses.size(), 1u);
  EXPECT_EQ(g[0].seed_oopses[0]->name, "oops 2");
  // The NULL dereference of the multi cell has a cause of its own too.
  EXPECT_EQ(GroupNumber(g, "freed|p|q"), 3u);
  EXPECT_EQ(g[2].classes.size(), 1u);
  EXPECT_EQ(GroupNumber(g, "no such cause"), 0u);
  EXPECT_EQ(MergedTitles(g[0].classes),
            (std::vector<std::string>{std::string(kUaf) + "a, b",
                                      std::string(kNull) + "zlib_uncompress"}));
}

TEST(VerifyRootCauses, SeedReportsMatchByTitle) {
  EXPECT_EQ(SeedOopsesOf("BUG: Bad page state").size(), 1u);
  EXPECT_EQ(SeedOopsesOf("VFS: brelse: Trying to free free buffer").size(), 1u);
  EXPECT_EQ(SeedOopsesOf("slab freelist corrupted: double kfree (oops in "
                         "__kmalloc_track_caller)")
                .size(),
            1u);
  EXPECT_TRUE(SeedOopsesOf(std::string(kNull) + "direct_next_page").empty());
}

}  // namespace
}  // namespace squashlab::cli
