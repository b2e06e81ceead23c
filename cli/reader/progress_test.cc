// SPDX-License-Identifier: GPL-2.0-only
// Tests of the progress bar's text and the summary line.
#include "cli/reader/progress.h"

#include <gtest/gtest.h>

namespace squashlab::cli {
namespace {

TEST(ProgressTest, BytesInDecimalUnits) {
  EXPECT_EQ(FormatBytes(0), "0 B");
  EXPECT_EQ(FormatBytes(999), "999 B");
  EXPECT_EQ(FormatBytes(1000), "1.00 kB");
  EXPECT_EQ(FormatBytes(12'340'000), "12.3 MB");
  EXPECT_EQ(FormatBytes(974'000'000), "974 MB");
  EXPECT_EQ(FormatBytes(1'020'000'000), "1.02 GB");
}

TEST(ProgressTest, BarShowsFilesBytesRateAndEtaWithinTheWidth) {
  const std::string s =
      RenderProgress(31337, 62563, 500'000'000, 1'000'000'000, 2.0, 100);
  EXPECT_LE(s.size(), 100u);
  EXPECT_NE(s.find("31,337/62,563 files"), std::string::npos) << s;
  EXPECT_NE(s.find("500 MB/1.00 GB"), std::string::npos) << s;
  EXPECT_NE(s.find("250 MB/s"), std::string::npos) << s;
  EXPECT_NE(s.find("ETA 0:02"), std::string::npos) << s;
  EXPECT_EQ(s[0], '[');
  EXPECT_EQ(s.find('#'), 1u);
  // Done: no ETA; narrow terminal: text cut, no bar.
  EXPECT_EQ(RenderProgress(5, 5, 10, 10, 1.0, 100).find("ETA"),
            std::string::npos);
  EXPECT_LE(RenderProgress(5, 5, 10, 10, 1.0, 20).size(), 20u);
}

TEST(ProgressTest, SummaryNamesEachKindOnce) {
  ExtractTotals t;
  t.files = 62563;
  t.dirs = 5567;
  t.symlinks = 4357;
  t.bytes = 974'000'000;
  EXPECT_EQ(
      RenderSummary(t, 2.0),
      "62563 files, 5567 dirs, 4357 symlinks, 974 MB in 2.00 s (487 MB/s)");
  t.hard_links = 2;
  t.specials = 1;
  EXPECT_EQ(
      RenderSummary(t, 0),
      "62563 files, 5567 dirs, 4357 symlinks, 2 hard links, 1 special files, "
      "974 MB in 0.00 s (0 MB/s)");
}

}  // namespace
}  // namespace squashlab::cli
