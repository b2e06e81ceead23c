// SPDX-License-Identifier: GPL-2.0-only
// This file declares SeedImage: one image the fuzzer starts from, by name.
#ifndef SQUASHLAB_HARNESS_REALFUZZ_SEED_IMAGE_H_
#define SQUASHLAB_HARNESS_REALFUZZ_SEED_IMAGE_H_

#include <cstdint>
#include <string>
#include <vector>

namespace squashlab {

struct SeedImage {
  std::string name;
  std::vector<uint8_t> bytes;
};

}  // namespace squashlab

#endif  // SQUASHLAB_HARNESS_REALFUZZ_SEED_IMAGE_H_
