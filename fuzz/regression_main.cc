// SPDX-License-Identifier: GPL-2.0-only
// This file implements the plain regression runner linked into every fuzz
// target when it is built without libFuzzer: it calls LLVMFuzzerTestOneInput
// once for every file named on the command line or found (recursively) in a
// directory named there. Arguments that start with '-' are libFuzzer flags
// and are ignored, so the same command line works for both builds.
#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc,
                                                          char*** argv);

namespace {

bool RunFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "regression_main: cannot read %s\n", path.c_str());
    return false;
  }
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  // A private copy of exactly `size` bytes, so ASan sees reads past the end.
  std::vector<uint8_t> exact(bytes);
  exact.shrink_to_fit();
  LLVMFuzzerTestOneInput(exact.empty() ? nullptr : exact.data(), exact.size());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (!arg.empty() && arg[0] == '-') continue;
    std::error_code ec;
    if (std::filesystem::is_directory(arg, ec)) {
      for (const auto& e : std::filesystem::recursive_directory_iterator(arg)) {
        if (e.is_regular_file()) files.push_back(e.path().string());
      }
    } else {
      files.push_back(arg);
    }
  }
  std::sort(files.begin(), files.end());
  size_t ran = 0;
  for (const std::string& f : files) {
    if (!RunFile(f)) return 1;
    ++ran;
  }
  std::printf("regression_main: ran %zu inputs\n", ran);
  return ran == 0 ? 1 : 0;  // an empty corpus means the test lost its inputs
}
