// SPDX-License-Identifier: GPL-2.0-only
// This file implements the lists of names from the model's tables.
#include "harness/model_names.h"

#include <utility>

#include "harness/linux_mount.h"
#include "hw_emul/profile.h"
#include "model/variants/decompressor.h"
#include "model/variants/read_path.h"

namespace squashlab {

std::vector<std::string> ReadPathNames() {
  std::vector<std::string> out;
  for (const auto* v : AllReadPaths()) out.push_back(v->name);
  for (const auto& v : LinuxVariantNames()) out.push_back(v);
  return out;
}

std::vector<std::string> HandWrittenReadPathNames() {
  std::vector<std::string> out;
  for (const auto* v : AllReadPaths()) out.push_back(v->name);
  return out;
}

std::vector<std::string> DecompressorNames() {
  std::vector<std::string> out;
  for (const auto* d : AllDecompressors()) out.push_back(d->name);
  return out;
}

std::vector<std::string> DeviceProfileNames() {
  std::vector<std::string> out;
  for (const DeviceProfile& p : AllProfiles()) out.push_back(p.name);
  return out;
}

std::vector<DeviceConstant> DeviceProfileConstants(const std::string& profile) {
  const DeviceProfile* d = FindProfile(profile);
  if (d == nullptr) return {};
  const std::pair<const char*, const Sourced*> numbers[] = {
      {"command_overhead_ns", &d->command_overhead_ns},
      {"bandwidth_bytes_per_s", &d->bandwidth_bytes_per_s},
      {"seek_ns", &d->seek_ns},
      {"rotation_ns", &d->rotation_ns},
      {"max_request_bytes", &d->max_request_bytes},
      {"command_bytes", &d->command_bytes},
      {"queue_depth", &d->queue_depth},
      {"channels", &d->channels},
      {"nr_requests", &d->nr_requests}};
  std::vector<DeviceConstant> out;
  for (const auto& [name, v] : numbers)
    out.push_back({name, static_cast<double>(v->value), v->source});
  return out;
}

}  // namespace squashlab
