// SPDX-License-Identifier: GPL-2.0-only
// This file declares the names a command may choose among, read from the
// model's own tables: the read paths (hand-written and real kernels), the
// decompressor strategies and the emulated devices' profiles.
#ifndef SQUASHLAB_HARNESS_MODEL_NAMES_H_
#define SQUASHLAB_HARNESS_MODEL_NAMES_H_

#include <string>
#include <vector>

namespace squashlab {

// The hand-written variants, then the real kernels (linux-6.12, ...).
std::vector<std::string> ReadPathNames();
std::vector<std::string> DecompressorNames();
std::vector<std::string> DeviceProfileNames();

}  // namespace squashlab

#endif  // SQUASHLAB_HARNESS_MODEL_NAMES_H_
