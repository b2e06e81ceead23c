// SPDX-License-Identifier: GPL-2.0-only
// This file implements the root cause tests: KASAN's freed object is read
// from a report's body; a class found on the production kernel, where no
// check sees the freed object, is traced back to it by replaying its
// schedule on the debug kernel; and async-2013's many titles come from few
// causes.
#include "harness/root_cause.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "harness/test_scenarios.h"

namespace squashlab {
namespace {

TEST(RootCause, KasanReportNamesTheFreedObjectsSites) {
  Report r;
  r.kind = ReportKind::kUseAfterFree;
  r.title = "BUG: KASAN: use-after-free in reader_fn";
  r.body =
      "Read of size 8 at addr 00007f0000000010 by task kworker/0:1:8\n"
      "Allocated by task dd:0:\n kmalloc\n alloc_fn\n"
      "Freed by task dd:1:\n kfree\n free_fn\n"
      "Comm: kworker/0:1:8 at step 3\n";
  RootCause c = RootCauseOf(r);
  EXPECT_EQ(c.alloc_site, "alloc_fn");
  EXPECT_EQ(c.free_site, "free_fn");
  EXPECT_EQ(c.first_title, r.title);
  // Another access to an object of the same sites: the same cause.
  Report other = r;
  other.title = "BUG: KASAN: use-after-free in other_fn";
  EXPECT_EQ(RootCauseOf(other).key, c.key);
  // Another freeing function: another cause.
  other.body.replace(other.body.find("free_fn"), 7, "freer_2");
  EXPECT_NE(RootCauseOf(other).key, c.key);
}

TEST(RootCause, AReportWithoutAFreedObjectIsItsOwnCause) {
  Report r;
  r.kind = ReportKind::kNullDereference;
  r.title = "BUG: unable to handle kernel NULL pointer dereference in f";
  r.body = "IP: f\n";
  RootCause c = RootCauseOf(r);
  EXPECT_TRUE(c.free_site.empty());
  EXPECT_EQ(c.Describe(), r.title);
  Report g = r;
  g.title = "BUG: unable to handle kernel NULL pointer dereference in g";
  EXPECT_NE(RootCauseOf(g).key, c.key);
  // Hangs are one cause whichever task hung.
  Report h1, h2;
  h1.kind = h2.kind = ReportKind::kHungTask;
  h1.title = "INFO: task dd blocked for more than 120 seconds.";
  h2.title = "INFO: task rand1 blocked for more than 120 seconds.";
  EXPECT_EQ(RootCauseOf(h1).key, RootCauseOf(h2).key);
}

// On the production kernel the 2013 patch's freed objects are reused and
// the oopses land anywhere; replayed on the debug kernel, KASAN names the
// object, and several production titles share one.
TEST(RootCause, ProductionClassesOfTheAsyncPatchTraceBackToAFreedObject) {
  VerifyOptions opt;
  opt.budget = 3000;
  opt.strategy = "random";
  opt.all_classes = true;
  opt.minimise_budget = 20;
  CellResult c =
      ExploreScenarios(Scenarios("async-2013", "single", {"rand", "dd2"}, "",
                                 nullptr, "", "prod"),
                       opt, 0);
  ASSERT_FALSE(c.classes.empty());
  std::map<std::string, std::set<std::string>> titles_by_cause;
  int replayed_to_object = 0;
  for (const ClassFinding& f : c.classes) {
    EXPECT_FALSE(f.root.key.empty()) << f.failure.report.title;
    EXPECT_TRUE(f.root.replayed_on_debug) << f.failure.report.title;
    // No production report is KASAN's: the object came from the replay.
    EXPECT_NE(f.failure.report.kind, ReportKind::kUseAfterFree);
    if (!f.root.free_site.empty()) replayed_to_object++;
    titles_by_cause[f.root.key].insert(f.failure.report.title);
  }
  EXPECT_GT(replayed_to_object, 0);
  size_t widest = 0;
  for (const auto& [key, titles] : titles_by_cause)
    widest = std::max(widest, titles.size());
  EXPECT_GE(widest, 2u) << "no two titles share a cause";
  EXPECT_LT(titles_by_cause.size(), c.classes.size());
}

// A debug kernel's class is read from its own run, not replayed.
TEST(RootCause, DebugClassesAreReadFromTheirOwnRun) {
  VerifyOptions opt;
  opt.budget = 1500;
  opt.strategy = "random";
  opt.all_classes = true;
  opt.minimise_budget = 20;
  CellResult c =
      ExploreScenarios(Scenarios("async-2013", "single", {"rand"}), opt, 0);
  ASSERT_FALSE(c.classes.empty());
  for (const ClassFinding& f : c.classes) {
    EXPECT_FALSE(f.root.replayed_on_debug);
    if (f.failure.report.kind == ReportKind::kUseAfterFree) {
      EXPECT_FALSE(f.root.free_site.empty()) << f.failure.report.body;
    }
  }
}

}  // namespace
}  // namespace squashlab
