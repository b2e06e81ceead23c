// SPDX-License-Identifier: GPL-2.0-only
// This file declares the names a command may choose among, read from the
// model's own tables: the read paths (hand-written and real kernels), the
// decompressor strategies and the emulated devices' profiles, and a
// profile's numbers with their sources.
#ifndef SQUASHLAB_HARNESS_MODEL_NAMES_H_
#define SQUASHLAB_HARNESS_MODEL_NAMES_H_

#include <string>
#include <vector>

namespace squashlab {

// The hand-written variants, then the real kernels (linux-6.12, ...).
std::vector<std::string> ReadPathNames();
// The hand-written variants alone, in their registry's order.
std::vector<std::string> HandWrittenReadPathNames();
std::vector<std::string> DecompressorNames();
std::vector<std::string> DeviceProfileNames();

// One number of an emulated device's profile (hw_emul/profile.h): its
// name (command_overhead_ns, bandwidth_bytes_per_s, seek_ns, ...), value
// and where it comes from.
struct DeviceConstant {
  std::string name;
  double value = 0;
  std::string source;
};
// The profile's numbers in a fixed order; empty when it is unknown.
std::vector<DeviceConstant> DeviceProfileConstants(const std::string& profile);

}  // namespace squashlab

#endif  // SQUASHLAB_HARNESS_MODEL_NAMES_H_
