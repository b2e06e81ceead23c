// SPDX-License-Identifier: GPL-2.0-only
// This file tests the command line's error messages and exit codes.
#include "cli/cli_status.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace squashlab::cli {
namespace {

// The message Fail prints to stderr.
std::string FailMessage(const std::string& image, const std::string& path,
                        const Status& s, int* code) {
  testing::internal::CaptureStderr();
  *code = Fail(image, path, s);
  return testing::internal::GetCapturedStderr();
}

TEST(Fail, SaysAMissingPathOnce) {
  int code = 0;
  EXPECT_EQ(FailMessage("IMG", "/nope", Status::NotFound("/nope"), &code),
            "squashlab: IMG: /nope: not found\n");
  EXPECT_EQ(code, kExitNotFound);
}

TEST(Fail, KeepsWhatTheMessageAddsToThePath) {
  int code = 0;
  EXPECT_EQ(
      FailMessage("IMG", "/a/b",
                  Status::NotFound("/a/b (a component is not a directory)"),
                  &code),
      "squashlab: IMG: /a/b: not found (a component is not a directory)\n");
  // Another path that merely starts like it is not a repetition.
  EXPECT_EQ(FailMessage("IMG", "/a", Status::NotFound("/ab"), &code),
            "squashlab: IMG: /a: not found: /ab\n");
}

TEST(Fail, CodesByKind) {
  int code = 0;
  FailMessage("IMG", "", Status::Corruption("bad magic"), &code);
  EXPECT_EQ(code, kExitCorrupt);
  FailMessage("IMG", "", Status::IoError("read: EIO"), &code);
  EXPECT_EQ(code, kExitIo);
}

TEST(UsageError, OneLineAndWhereTheHelpIs) {
  testing::internal::CaptureStderr();
  EXPECT_EQ(UsageError("cat", "the following argument was not expected: -x"),
            kExitUsage);
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "squashlab cat: the following argument was not expected: -x\n"
            "try 'squashlab cat --help'\n");
}

}  // namespace
}  // namespace squashlab::cli
