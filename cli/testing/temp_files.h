// SPDX-License-Identifier: GPL-2.0-only
// This file implements the file helpers the extraction tests share: read a
// whole file, and a fresh empty path under the test's temporary directory.
#ifndef SQUASHLAB_CLI_TESTING_TEMP_FILES_H_
#define SQUASHLAB_CLI_TESTING_TEMP_FILES_H_

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace squashlab::cli::test_files {

inline std::string Slurp(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

// TEST_TMPDIR/name (or /tmp/name), removed if it exists.
inline std::filesystem::path FreshDir(const std::string& name) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  std::filesystem::path p = std::filesystem::path(tmp ? tmp : "/tmp") / name;
  std::filesystem::remove_all(p);
  return p;
}

}  // namespace squashlab::cli::test_files

#endif  // SQUASHLAB_CLI_TESTING_TEMP_FILES_H_
