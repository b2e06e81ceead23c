// SPDX-License-Identifier: GPL-2.0-only
// This file implements the tests of verify's text verdict: however many
// classes and causes a long exploration finds, the default verdict keeps
// to a screen's worth of lines (./run.sh prints at most 150, the reader's
// info and listing before it included), and --all-classes lists every class.
#include "cli/lab/verify_report.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "cli/lab/verify_expectations.h"
#include "harness/verify/verify.h"

namespace squashlab::cli {
namespace {

// What ./run.sh prints before the verdict: headers, `info` (20 lines) and
// eight lines of `ls`.
constexpr long kRunShLinesBeforeVerdict = 33;

VerifyResult Flood(int causes, int titles_per_cause) {
  VerifyResult r;
  for (const char* v : {"a", "b", "c", "d", "e", "f"}) {
    for (const char* d :
         {"single", "multi", "percpu", "percpu-locallock", "other"}) {
      CellResult c;
      c.variant = v;
      c.decomp = d;
      c.runs = 1000;
      c.found = std::string(v) == "c";
      for (int k = 0; c.found && k < causes; k++)
        for (int t = 0; t < titles_per_cause; t++) {
          ClassFinding f;
          f.scenario = std::string(v) + "/" + d + "/rand";
          f.failure.report.kind =
              t % 2 ? ReportKind::kNullDereference : ReportKind::kUseAfterFree;
          f.failure.report.title = "BUG: kind " + std::to_string(t % 5) +
                                   " in fn" + std::to_string(k * 100 + t);
          f.minimised = f.failure;
          f.root.key = "freed|alloc" + std::to_string(k) + "|free";
          f.root.alloc_site = "alloc" + std::to_string(k);
          f.root.free_site = "free";
          c.classes.push_back(f);
        }
      r.cells.push_back(c);
    }
  }
  return r;
}

long Lines(const std::string& s) {
  return std::count(s.begin(), s.end(), '\n');
}

TEST(VerifyReport, TheDefaultVerdictFitsAScreenWhateverIsFound) {
  for (int causes : {1, 8, 40})
    for (int titles : {1, 3, 30}) {
      const VerifyResult r = Flood(causes, titles);
      Expectations e = AllClean({"a", "b", "c", "d", "e", "f"});
      e["c"] = true;
      const std::string out =
          FormatVerifyReport(r, {}) +
          FormatVerifySummary(r, e, UnmetExpectations(r, e));
      EXPECT_LE(Lines(out) + kRunShLinesBeforeVerdict, 150)
          << causes << " causes, " << titles << " titles:\n"
          << out;
      EXPECT_NE(out.find("[1] an object allocated in alloc"),
                std::string::npos);
    }
}

TEST(VerifyReport, AllClassesListsEveryClassAndCause) {
  const VerifyResult r = Flood(12, 4);
  VerifyReportOptions opt;
  opt.all_classes = true;
  const std::string out = FormatVerifyReport(r, opt);
  for (int k = 0; k < 12; k++)
    for (int t = 0; t < 4; t++)
      EXPECT_NE(out.find("fn" + std::to_string(k * 100 + t) + "\n"),
                std::string::npos)
          << k << " " << t;
  EXPECT_NE(out.find("[12] "), std::string::npos);
  // The default verdict shows fewer causes, and says where the rest are.
  const std::string brief = FormatVerifyReport(r, {});
  EXPECT_EQ(brief.find("[12] "), std::string::npos);
  EXPECT_NE(brief.find("other root causes (--all-classes)"), std::string::npos);
}

}  // namespace
}  // namespace squashlab::cli
