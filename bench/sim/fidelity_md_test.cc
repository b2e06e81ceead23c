// SPDX-License-Identifier: GPL-2.0-only
// This file checks that bench/sim/README.md's fidelity table is what
// `squashlab bench fidelity` produces now: the table cannot drift from the
// model, the constants or the code. Regenerate it with
// `bazel run //bench/sim:fidelity_md`.
#include "bench/sim/fidelity_md.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "bench/sim/bench.h"
#include "bench/sim/fidelity.h"

namespace squashlab {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(FidelityMd, ReadmeTableIsCurrent) {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  std::string readme = ReadFile(std::string(srcdir ? srcdir : ".") +
                                "/squashlab/bench/sim/README.md");
  auto block = FidelityBlock(readme);
  ASSERT_TRUE(block.has_value()) << "no fidelity markers in the README";
  BenchOptions opt;
  opt.scenario = "fidelity";
  opt.jobs = 2;
  const char* tmp = std::getenv("TEST_TMPDIR");
  opt.cache_dir = std::string(tmp ? tmp : "/tmp") + "/fidelity-cache";
  auto res = RunBench(opt, nullptr);
  ASSERT_TRUE(res.ok()) << res.status().ToString();
  EXPECT_EQ(*block, FidelityMarkdown(*res))
      << "bench/sim/README.md's fidelity table is stale: bazel run "
         "//bench/sim:fidelity_md";
}

TEST(FidelityMd, MarkersFoundAndReplaced) {
  std::string text =
      std::string("a\n") + kFidelityBegin + "\nold\n" + kFidelityEnd + "\nb\n";
  EXPECT_EQ(*FidelityBlock(text), "old\n");
  auto out = ReplaceFidelityBlock(text, "new\n");
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(*FidelityBlock(*out), "new\n");
  EXPECT_FALSE(FidelityBlock("no markers").has_value());
}

TEST(FidelityRow, ErrorsOfFiguresAndRanges) {
  FidelityRow f;
  f.lo = f.hi = 40;
  f.pred_lo = f.pred_hi = 46;
  EXPECT_NEAR(f.Error(), 0.15, 1e-12);
  EXPECT_TRUE(f.Within());
  f.pred_lo = f.pred_hi = 47;
  EXPECT_FALSE(f.Within());
  f.tolerance = -2;  // within 2x
  EXPECT_TRUE(f.Within());
  f.pred_lo = f.pred_hi = 81;
  EXPECT_FALSE(f.Within());
  FidelityRow r;
  r.lo = 7.9;
  r.hi = 16;
  r.pred_lo = 8;
  r.pred_hi = 15;
  EXPECT_EQ(r.Error(), 0);
  EXPECT_TRUE(r.Within());
  r.pred_hi = 20;
  EXPECT_NEAR(r.Error(), 0.25, 1e-12);
  EXPECT_FALSE(r.Within());
}

}  // namespace
}  // namespace squashlab
