// SPDX-License-Identifier: GPL-2.0-only
// This file implements the extraction fuzz target: `squashlab extract` of
// the input into a scratch directory, checking after every run that nothing
// was written outside it. Layout of the private temporary directory:
//   BASE/image.sqfs   the input
//   BASE/canary/      must stay empty
//   BASE/work/dest/   the destination; BASE/work must hold only "dest"
// so an escape through "..", "/" or a followed symlink lands in BASE, in
// BASE/work or in BASE/canary and aborts the run. Absolute symlink targets
// are never followed by DestDir (no component it has not made or checked
// itself, the last one never followed); the relative
// layout above is what a fuzzer can reach by mutation ("../canary").
// Inputs that declare more than kMaxTotalBytes of file data or kMaxInodes
// inodes are skipped (decompression bombs are the image target's business),
// and RLIMIT_FSIZE bounds any single file.
#include <dirent.h>
#include <ftw.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "cli/cli_status.h"
#include "cli/commands.h"
#include "cli/reader/tree_walker.h"
#include "fuzz/fuzz_input.h"
#include "reader/image.h"

namespace squashlab::fuzz {
namespace {

constexpr uint64_t kMaxTotalBytes = 32u << 20;
constexpr uint64_t kMaxInodes = 4000;
constexpr rlim_t kMaxFileSize = 64u << 20;

std::string g_base;

std::set<std::string> List(const std::string& dir) {
  std::set<std::string> out;
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return out;
  while (dirent* e = readdir(d)) {
    std::string n = e->d_name;
    if (n != "." && n != "..") out.insert(n);
  }
  closedir(d);
  return out;
}

int RemoveOne(const char* path, const struct stat*, int, struct FTW*) {
  remove(path);
  return 0;
}

void RemoveTree(const std::string& path) {
  nftw(path.c_str(), RemoveOne, 16, FTW_DEPTH | FTW_PHYS);
}

void Cleanup() {
  if (!g_base.empty()) RemoveTree(g_base);
}

// True when the image is small enough to extract: bounded inodes and bytes.
bool WithinBudget(Image* image) {
  auto root = image->Root();
  if (!root.ok()) return true;  // extract fails at once, cheaply
  uint64_t inodes = 0, bytes = 0;
  Status st = cli::WalkTree(image, "/", *root, true,
                            [&](const cli::WalkItem& item) -> Status {
                              if (++inodes > kMaxInodes)
                                return Status::OutOfRange("too many inodes");
                              if (item.inode.type == InodeType::kFile)
                                bytes += item.inode.file_size;
                              if (bytes > kMaxTotalBytes)
                                return Status::OutOfRange("too many bytes");
                              return Status::Ok();
                            });
  return st.code() != StatusCode::kOutOfRange;
}

void CheckNoEscape() {
  const std::set<std::string> base = List(g_base);
  for (const std::string& n : base) {
    if (n != "image.sqfs" && n != "canary" && n != "work") {
      std::fprintf(stderr, "extract wrote outside its destination: %s/%s\n",
                   g_base.c_str(), n.c_str());
      std::abort();
    }
  }
  FUZZ_CHECK(base.count("canary") == 1 && List(g_base + "/canary").empty());
  for (const std::string& n : List(g_base + "/work")) {
    if (n != "dest") {
      std::fprintf(stderr, "extract wrote beside its destination: %s/work/%s\n",
                   g_base.c_str(), n.c_str());
      std::abort();
    }
  }
}

}  // namespace
}  // namespace squashlab::fuzz

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  using namespace squashlab::fuzz;
  const char* tmp = getenv("TEST_TMPDIR");
  std::string root =
      tmp ? tmp : (access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
  std::string templ = root + "/squashlab-extract-XXXXXX";
  FUZZ_CHECK(mkdtemp(templ.data()) != nullptr);
  g_base = templ;
  FUZZ_CHECK(mkdir((g_base + "/canary").c_str(), 0755) == 0);
  std::atexit(Cleanup);
  // A single file larger than the limit fails with EFBIG instead of filling the
  // disk.
  signal(SIGXFSZ, SIG_IGN);
  rlimit lim{kMaxFileSize, kMaxFileSize};
  setrlimit(RLIMIT_FSIZE, &lim);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace squashlab;
  using namespace squashlab::fuzz;
  {
    auto image = Image::OpenBytes(std::vector<uint8_t>(data, data + size));
    if (!image.ok() || !WithinBudget(image->get())) return 0;
  }
  const std::string img = g_base + "/image.sqfs";
  FILE* f = std::fopen(img.c_str(), "wb");
  FUZZ_CHECK(f != nullptr);
  FUZZ_CHECK(size == 0 || std::fwrite(data, 1, size, f) == size);
  std::fclose(f);
  const std::string work = g_base + "/work";
  FUZZ_CHECK(mkdir(work.c_str(), 0755) == 0);
  const int rc = cli::RunExtract({"-q", "-p", "1", img, work + "/dest"});
  FUZZ_CHECK(rc != cli::kExitUsage && rc >= 0 && rc <= 4);
  // Self-test of the escape check (extract_escape_check_test): plant what an
  // escaping extraction would leave behind.
  if (const char* plant = getenv("SQUASHLAB_EXTRACT_FUZZER_PLANT")) {
    FILE* p = std::fopen((g_base + "/" + plant).c_str(), "w");
    if (p != nullptr) std::fclose(p);
  }
  CheckNoEscape();
  RemoveTree(work);
  FUZZ_CHECK(List(g_base).count("work") == 0);
  return 0;
}
