// SPDX-License-Identifier: GPL-2.0-only
// This file implements the lists of names from the model's tables.
#include "harness/model_names.h"

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

}  // namespace squashlab
