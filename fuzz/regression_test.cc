// SPDX-License-Identifier: GPL-2.0-only
// This file implements the regression corpus test: every image in
// fuzz/regression/ is one known bug class of other SquashFS readers, and
// fuzz/regression/manifest.txt states what the reader must do with it — fail
// cleanly with a given StatusCode (and message) at a given stage, or return
// the right bytes. Lines (tab-separated, '#' comments):
//   FILE  open    CODE  SUBSTRING         Image::OpenBytes
//   FILE  scan    CODE  SUBSTRING         ScanImage (after a successful open)
//   FILE  lookup  PATH  CODE  SUBSTRING   Image::Lookup
//   FILE  read    PATH  CODE  SUBSTRING   ReadFile of the whole file; for ok
//                                         the SUBSTRING is "SIZE:FNV1A64HEX"
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "reader/full_scan.h"
#include "reader/image.h"

namespace squashlab {
namespace {

const char* const kDir = "fuzz/regression";

std::vector<uint8_t> ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
}

StatusCode ParseCode(const std::string& s) {
  static const std::map<std::string, StatusCode> kCodes = {
      {"ok", StatusCode::kOk},
      {"corruption", StatusCode::kCorruption},
      {"out_of_range", StatusCode::kOutOfRange},
      {"io_error", StatusCode::kIoError},
      {"unsupported", StatusCode::kUnsupported},
      {"not_found", StatusCode::kNotFound},
      {"invalid_argument", StatusCode::kInvalidArgument}};
  auto it = kCodes.find(s);
  EXPECT_NE(it, kCodes.end()) << "unknown code " << s;
  return it == kCodes.end() ? StatusCode::kOk : it->second;
}

std::vector<std::string> Split(const std::string& line) {
  std::vector<std::string> f;
  std::stringstream ss(line);
  std::string x;
  while (std::getline(ss, x, '\t')) f.push_back(x);
  if (!line.empty() && line.back() == '\t')
    f.push_back("");  // an empty last field
  return f;
}

void ExpectStatus(const Status& s, const std::string& code,
                  const std::string& substring) {
  EXPECT_EQ(s.code(), ParseCode(code)) << s.ToString();
  if (!s.ok()) {
    EXPECT_NE(s.message().find(substring), std::string::npos) << s.ToString();
  }
}

std::string Fnv(const std::vector<uint8_t>& b) {
  uint64_t h = 14695981039346656037ull;
  for (uint8_t c : b) h = (h ^ c) * 1099511628211ull;
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return std::to_string(b.size()) + ":" + buf;
}

void Check(const std::vector<std::string>& f) {
  auto image = Image::OpenBytes(ReadAll(std::string(kDir) + "/" + f[0]));
  const std::string& stage = f[1];
  if (stage == "open") {
    ASSERT_EQ(f.size(), 4u);
    ASSERT_FALSE(image.ok()) << "opened";
    ExpectStatus(image.status(), f[2], f[3]);
    return;
  }
  ASSERT_TRUE(image.ok()) << image.status().ToString();
  Image* img = image->get();
  if (stage == "scan") {
    ASSERT_EQ(f.size(), 4u);
    ScanStats stats;
    ExpectStatus(ScanImage(img, ScanLimits{}, &stats), f[2], f[3]);
    return;
  }
  ASSERT_EQ(f.size(), 5u);
  auto inode = img->Lookup(f[2]);
  if (stage == "lookup") {
    ExpectStatus(inode.status(), f[3], f[4]);
    return;
  }
  ASSERT_EQ(stage, "read");
  ASSERT_TRUE(inode.ok()) << inode.status().ToString();
  std::vector<uint8_t> out(std::min<uint64_t>(inode->file_size, 64u << 20));
  auto n = img->ReadFile(*inode, 0, out);
  if (f[3] == "ok") {
    ASSERT_TRUE(n.ok()) << n.status().ToString();
    out.resize(*n);
    EXPECT_EQ(Fnv(out), f[4]);
  } else {
    ExpectStatus(n.status(), f[3], f[4]);
  }
}

TEST(RegressionCorpus, EveryFileBehavesAsTheManifestSays) {
  std::ifstream manifest(std::string(kDir) + "/manifest.txt");
  ASSERT_TRUE(manifest) << "no manifest";
  std::set<std::string> covered;
  std::string line;
  int checks = 0;
  while (std::getline(manifest, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> f = Split(line);
    ASSERT_GE(f.size(), 4u) << line;
    SCOPED_TRACE(line);
    Check(f);
    covered.insert(f[0]);
    ++checks;
  }
  std::set<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(kDir)) {
    if (e.path().extension() == ".sqfs")
      files.insert(e.path().filename().string());
  }
  EXPECT_EQ(files, covered)
      << "every regression image needs an expectation, and vice versa";
  EXPECT_GE(checks, 20);
}

}  // namespace
}  // namespace squashlab
