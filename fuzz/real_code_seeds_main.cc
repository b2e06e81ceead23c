// SPDX-License-Identifier: GPL-2.0-only
// This file implements the tool that writes the seed images of
// real_code_image_fuzzer (those of `squashlab fuzz`, harness/realfuzz/
// seeds.h) into a directory, one file each; run at build time.
// usage: real_code_seeds DIR
#include <cstdio>
#include <fstream>
#include <string>

#include "harness/realfuzz/seeds.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: real_code_seeds DIR\n");
    return 2;
  }
  auto seeds = squashlab::DefaultFuzzSeeds();
  if (!seeds.ok()) {
    std::fprintf(stderr, "real_code_seeds: %s\n",
                 seeds.status().ToString().c_str());
    return 1;
  }
  for (const squashlab::SeedImage& s : *seeds) {
    const std::string path = std::string(argv[1]) + "/" + s.name + ".sqfs";
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(s.bytes.data()),
              static_cast<std::streamsize>(s.bytes.size()));
    if (!out) {
      std::fprintf(stderr, "real_code_seeds: cannot write %s\n", path.c_str());
      return 1;
    }
  }
  return 0;
}
