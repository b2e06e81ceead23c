// SPDX-License-Identifier: GPL-2.0-only
// This file implements the test of the compiler-inserted KASAN checks: a
// copy of async-fixed with a use-after-free of its kmalloc'd request
// planted in the copy (a plain field read after kfree, no annotation) is
// reported as KASAN reports it — the function, the access, where the
// object was allocated and freed — and the unchanged copy, built the same
// way, is clean.
#include <gtest/gtest.h>

#include "harness/test_scenarios.h"
#include "harness/verify/verify.h"
#include "model/variants/read_path.h"

namespace squashlab {

extern const ReadPathOps kAsyncFixedCopy;
extern const ReadPathOps kAsyncFixedPlanted;

namespace {

class KasanPlanted : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    RegisterTestReadPath(&kAsyncFixedCopy);
    RegisterTestReadPath(&kAsyncFixedPlanted);
  }
};

TEST_F(KasanPlanted, UseAfterFreeOfTheRequestIsReported) {
#if !defined(SQUASHLAB_KASAN)
  GTEST_SKIP() << "this build compiles the code under test without KASAN "
                  "(--config=tsan keeps ThreadSanitizer there)";
#endif
  VerifyOptions opt;
  opt.budget = 50;
  CellResult c = ExploreScenarios(
      Scenarios("async-fixed-planted", "single", {"dd", "dd2"}), opt, 0);
  ASSERT_TRUE(c.found) << "the planted use-after-free went unseen";
  const Report& r = c.failure.report;
  EXPECT_EQ(r.kind, ReportKind::kUseAfterFree) << r.ToString();
  EXPECT_EQ(r.title, "BUG: KASAN: use-after-free in squashfs_async_req_work")
      << r.ToString();
  EXPECT_NE(r.body.find("Read of size 4 at addr"), std::string::npos) << r.body;
  EXPECT_NE(r.body.find("Allocated by task"), std::string::npos) << r.body;
  EXPECT_NE(r.body.find("squashfs_readpage_block"), std::string::npos)
      << r.body;
  EXPECT_NE(r.body.find("Freed by task kworker"), std::string::npos) << r.body;
  EXPECT_NE(r.body.find("kfree\n squashfs_async_req_work"), std::string::npos)
      << r.body;
  EXPECT_LE(c.first_failing_run, 1) << "every run frees a request";
  EXPECT_NE(r.body.find("which belongs to the cache kmalloc-"),
            std::string::npos)
      << r.body;
}

TEST_F(KasanPlanted, TheUnplantedCopyIsClean) {
  VerifyOptions opt;
  opt.budget = 150;
  for (const char* d : {"single", "multi"}) {
    CellResult c = ExploreScenarios(
        Scenarios("async-fixed-copy", d, {"dd", "dd2", "rand"}), opt, 0);
    EXPECT_FALSE(c.found) << d << "\n" << c.failure.report.ToString();
  }
}

TEST_F(KasanPlanted, ProductionKernelHasNoKasan) {
  // No KASAN on a production kernel: the stale read goes unseen, as it
  // would on the seed's kernel.
  VerifyOptions opt;
  opt.budget = 20;
  CellResult c = ExploreScenarios(Scenarios("async-fixed-planted", "single",
                                            {"dd"}, "", nullptr, "", "prod"),
                                  opt, 0);
  EXPECT_FALSE(c.found) << c.failure.report.ToString();
}

}  // namespace
}  // namespace squashlab
