// SPDX-License-Identifier: GPL-2.0-only
// This file tests the wrapping of help text.
#include "cli/help_formatter.h"

#include <gtest/gtest.h>

#include <sstream>

namespace squashlab::cli {
namespace {

TEST(WrapText, NoLineLongerThanTheWidth) {
  const std::string text =
      "With no --variant and no --expect, the job expects what the seed thread "
      "found: "
      "async-2013 fails, every other variant is clean.";
  std::istringstream lines(WrapText(text, 30));
  std::string line;
  int n = 0;
  while (std::getline(lines, line)) {
    EXPECT_LE(line.size(), 30u) << line;
    n++;
  }
  EXPECT_GT(n, 3);
}

TEST(WrapText, KeepsNewlinesAndIndents) {
  EXPECT_EQ(WrapText("Scenarios:\n  phillip: the matrix", 80),
            "Scenarios:\n  phillip: the matrix");
  // An indented item's continuation lines sit under its text.
  EXPECT_EQ(WrapText("  aaaa bbbb cccc", 11), "  aaaa bbbb\n    cccc");
}

TEST(WrapText, AWordLongerThanTheWidthStaysWhole) {
  EXPECT_EQ(WrapText("x sq1:a-very-long-token", 8), "x\nsq1:a-very-long-token");
}

}  // namespace
}  // namespace squashlab::cli
