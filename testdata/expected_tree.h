// SPDX-License-Identifier: GPL-2.0-only
// This file implements the expected contents of testdata/make_tree.py's
// tree, recomputed from the same formulas, for tests that read the images.
#ifndef SQUASHLAB_TESTDATA_EXPECTED_TREE_H_
#define SQUASHLAB_TESTDATA_EXPECTED_TREE_H_

#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace squashlab::testdata {

// Must match pattern() in make_tree.py.
inline std::string ExpectedPattern(int seed, size_t size) {
  std::string s(size, '\0');
  for (size_t i = 0; i < size; ++i)
    s[i] = static_cast<char>((i * 131 + seed) % 251);
  return s;
}

struct ExpectedFile {
  const char* path;
  int seed;
  size_t size;
};

inline const std::vector<ExpectedFile>& PatternFiles() {
  static const std::vector<ExpectedFile> kFiles = {
      {"/empty", 0, 0},
      {"/small", 1, 100},
      {"/block", 2, 131072},
      {"/block_minus_1", 3, 131071},
      {"/block_plus_1", 4, 131073},
      {"/big", 5, 700000},
      {"/big_link", 5, 700000},
      {"/suid", 6, 10},
  };
  return kFiles;
}

inline std::string ExpectedText() {
  std::string s;
  for (int i = 0; i < 20000; ++i)
    s += "line " + std::to_string(i) + " of a compressible text\n";
  return s;
}

inline std::string ImagePath(const std::string& name) {
  return "testdata/" + name + ".sqfs";
}

// The bytes of test image `name` (empty if it cannot be read).
inline std::vector<uint8_t> ImageBytesOf(const std::string& name) {
  std::ifstream f(ImagePath(name), std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
}

}  // namespace squashlab::testdata

#endif  // SQUASHLAB_TESTDATA_EXPECTED_TREE_H_
