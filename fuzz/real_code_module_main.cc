// SPDX-License-Identifier: GPL-2.0-only
// This file implements the build step of real_code_image_fuzzer outside
// Bazel (fuzz/build.sh, for OSS-Fuzz and ClusterFuzzLite, whose runners
// have no compiler): a kernel tree's fs/squashfs and lib/ decompressors
// built as `squashlab fuzz --source` builds them (harness/source_build.h;
// $SQUASHLAB_LINUX_INCLUDE names the header layer) into the module the
// fuzzer loads, OUT_DIR/libsquashfs_linux_6_12.so.
// usage: real_code_module KERNEL_TREE OUT_DIR
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "harness/source_build.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: real_code_module KERNEL_TREE OUT_DIR\n");
    return 2;
  }
  auto tree = squashlab::BuildSourceTree(argv[1], &std::cerr);
  if (!tree.ok()) {
    std::fprintf(stderr, "real_code_module: %s\n",
                 tree.status().ToString().c_str());
    return 1;
  }
  if (!tree->by_mount) {
    std::fprintf(stderr,
                 "real_code_module: %s chooses its decompressor at "
                 "build time (before 6.2); the fuzzer loads 6.12's\n",
                 argv[1]);
    return 1;
  }
  const std::filesystem::path out =
      std::filesystem::path(argv[2]) / "libsquashfs_linux_6_12.so";
  std::error_code ec;
  std::filesystem::copy_file(tree->modules.at("single")->path, out,
                             std::filesystem::copy_options::overwrite_existing,
                             ec);
  if (ec) {
    std::fprintf(stderr, "real_code_module: %s: %s\n", out.c_str(),
                 ec.message().c_str());
    return 1;
  }
  return 0;
}
