// SPDX-License-Identifier: GPL-2.0-only
// This file implements the module registry of the bridge (registry.h).
#include "model/linux/bridge/registry.h"

#include <mutex>

namespace squashlab::linux_bridge {
namespace {
std::mutex init_mu;  // one module init at a time
::file_system_type* registered = nullptr;
}  // namespace

void RegisterFilesystem(::file_system_type* fs) { registered = fs; }

::file_system_type* RunModuleInit(int (*init)(void), int* err) {
  std::lock_guard<std::mutex> l(init_mu);
  registered = nullptr;
  *err = init();
  return registered;
}

}  // namespace squashlab::linux_bridge
