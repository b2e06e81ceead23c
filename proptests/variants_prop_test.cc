// SPDX-License-Identifier: GPL-2.0-only
// Properties of the read-path variants. For a
// generated case — image (embedded, testdata, or generated and packed by
// mksquashfs), decompressor strategy, workload plus generated readers,
// device profile and logical block size, fault plan, exploration strategy
// and seed — every correct variant reaches quiescence with exactly the
// oracle's bytes in every read (or EIO where a fault was injected), no page
// left locked and nothing leaked (the generic checks of model/ decide,
// never the variant's name); every uptodate page left in a page cache holds
// the oracle's bytes; and the pages that several variants hold are
// identical. The same property stated for async-2013 must be falsified:
// RapidCheck has to find a counterexample and shrink it within its budget.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <optional>
#include <sstream>

#include "proptests/producer_check.h"
#include "proptests/variant_case.h"

namespace squashlab::proptests {
namespace {

const std::vector<std::string> kCorrectVariants = {
    "sync-3.13", "file-cache-3.13", "async-fixed", "readpages-cache",
    "readahead-mainline"};

void TagCase(const VariantCase& c) {
  RC_TAG(c.image == "generated" ? "generated image" : "named image",
         c.spec.device.empty() ? "ram disk" : "device",
         c.spec.faults.empty() ? "no faults" : "faults");
}

// A generated image the producer got wrong (producer_check.h) judges no
// variant.
void DiscardIfTheProducerFailed(const VariantCase& c) {
  const auto image = ImageOf(c);
  if (!image.ok() && IsProducerFault(image.status().message()))
    RC_DISCARD(image.status().message());
}

RC_GTEST_PROP(VariantsProperty,
              CorrectVariantsReturnTheOraclesBytesAndAgreePageByPage, ()) {
  const VariantCase c = *GenVariantCase();
  DiscardIfTheProducerFailed(c);
  TagCase(c);
  std::vector<VariantRun> runs;
  for (const std::string& v : kCorrectVariants) {
    runs.push_back(RunVariant(c, v));
    if (!runs.back().report.empty()) RC_FAIL(runs.back().report);
  }
  std::vector<std::pair<std::string, const PageSnapshot*>> snaps;
  for (size_t i = 0; i < runs.size(); i++)
    snaps.emplace_back(kCorrectVariants[i], &runs[i].pages);
  const Comparison cmp = ComparePages(snaps);
  if (!cmp.diff.empty()) RC_FAIL(cmp.diff);
  RC_CLASSIFY(cmp.shared > 0, "pages compared across variants");
  RC_CLASSIFY(cmp.unshared > 0,
              "readahead differed (pages only one variant held)");
  size_t error_pages = 0;
  for (const VariantRun& r : runs) error_pages += r.pages.error_pages;
  RC_CLASSIFY(error_pages > 0, "a fault left PG_error pages");
}

// What RapidCheck ran: the first failing case, then the shrink candidates
// (a candidate that still fails becomes the current case) and re-runs of
// the current case (to describe it). The counterexample it reports is the
// last failing case: none of its shrinks failed.
struct Falsification {
  std::optional<VariantCase> first, last;
  std::string last_shown;
  int failing = 0;     // distinct failing cases
  int candidates = 0;  // distinct cases run after the first failure
};

std::string Shown(const VariantCase& c) {
  std::ostringstream os;
  showValue(c, os);
  return os.str();
}

// A case with nothing left to shrink: every choice at its first value.
bool Smallest(const VariantCase& c) {
  return c.image == "default" && c.spec.decomp == "single" &&
         c.spec.workload == Workloads().front().first && c.readers.empty() &&
         c.spec.device.empty() && c.spec.faults.empty() &&
         c.strategy == "pct" && c.seed == 0;
}

TEST(VariantsProperty, TheSamePropertyIsFalsifiedAndShrunkForAsync2013) {
  Falsification seen;
  const auto property = [&seen] {
    const VariantCase c = *GenVariantCase();
    DiscardIfTheProducerFailed(c);
    const VariantRun run = RunVariant(c, "async-2013");
    const std::string shown = Shown(c);
    if (shown != seen.last_shown) {
      if (seen.first) seen.candidates++;
      if (!run.report.empty()) {
        if (!seen.first) seen.first = c;
        seen.last = c;
        seen.last_shown = shown;
        seen.failing++;
      }
    }
    RC_ASSERT(run.report.empty());
  };
  rc::detail::TestMetadata metadata;
  metadata.id = metadata.description =
      "async-2013 behaves like the correct variants";
  const rc::detail::TestParams params = rc::detail::configuration().testParams;
  const rc::detail::TestResult result =
      rc::detail::checkTestable(property, metadata, params);
  std::cerr << "\n- " << metadata.description << " (seed=" << params.seed
            << ")\n";
  rc::detail::printResultMessage(result, std::cerr);
  std::cerr << "\n";

  rc::detail::FailureResult failure;
  ASSERT_TRUE(result.match(failure))
      << "RapidCheck found no counterexample for async-2013 within "
      << params.maxSuccess << " cases";
  ASSERT_TRUE(seen.first && seen.last);
  // Shrinking ran (candidates were tried unless the case was already the
  // smallest), every failing candidate was kept (a candidate may also fail
  // unseen: one that shows the same, e.g. a repeated choice), and the
  // reported counterexample is the last failing case, which fails again.
  EXPECT_TRUE(seen.candidates > 0 || Smallest(*seen.first))
      << "no shrink was tried";
  EXPECT_LE(static_cast<size_t>(seen.failing),
            1 + failure.reproduce.shrinkPath.size());
  bool shown_in_report = false;
  for (const auto& [type, value] : failure.counterExample)
    shown_in_report |= value == seen.last_shown;
  EXPECT_TRUE(shown_in_report)
      << "the reported counterexample is not the last failing case";
  EXPECT_FALSE(RunVariant(*seen.last, "async-2013").report.empty())
      << "the shrunk counterexample does not fail again";
  std::cerr << "first failing case: ";
  showValue(*seen.first, std::cerr);
  std::cerr << "\nshrunk in " << failure.reproduce.shrinkPath.size()
            << " steps (" << seen.candidates
            << " candidates tried) to: " << seen.last_shown << "\n";
}

// The page check itself: one flipped byte in one uptodate page must be
// reported, naming the file and page.
TEST(VariantsProperty, AWrongByteInAnUptodatePageIsReported) {
  VariantCase c;
  c.spec.workload = "dd";
  RunHooks hooks;
  hooks.corrupt_one_page = true;
  for (const std::string& v : kCorrectVariants) {
    EXPECT_EQ(RunVariant(c, v).report, "") << v;
    const VariantRun run = RunVariant(c, v, hooks);
    EXPECT_NE(run.report.find("uptodate page cache page holds wrong bytes"),
              std::string::npos)
        << v << ": " << run.report;
  }
}

// The cross-variant comparison itself: a page that one variant holds with
// another byte is reported, naming that variant.
TEST(VariantsProperty, ComparisonNamesTheVariantThatDiffers) {
  VariantCase c;
  c.spec.workload = "dd";
  VariantRun a = RunVariant(c, "sync-3.13"),
             b = RunVariant(c, "readahead-mainline");
  ASSERT_EQ(a.report, "");
  ASSERT_EQ(b.report, "");
  Comparison same =
      ComparePages({{"sync-3.13", &a.pages}, {"readahead-mainline", &b.pages}});
  EXPECT_EQ(same.diff, "");
  ASSERT_GT(same.shared, 0u);
  b.pages.uptodate.begin()->second[100] ^= 1;
  Comparison differ =
      ComparePages({{"sync-3.13", &a.pages}, {"readahead-mainline", &b.pages}});
  EXPECT_EQ(differ.diff.rfind("readahead-mainline differs from sync-3.13: ", 0),
            0u)
      << differ.diff;
}

}  // namespace
}  // namespace squashlab::proptests
