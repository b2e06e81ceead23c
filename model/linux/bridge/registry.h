// SPDX-License-Identifier: GPL-2.0-only
// This file implements the bridge's link to a loaded kernel module: the
// file_system_type its init registered, and the mount request an
// fs_context carries to get_tree_bdev.
#ifndef SQUASHLAB_MODEL_LINUX_BRIDGE_REGISTRY_H_
#define SQUASHLAB_MODEL_LINUX_BRIDGE_REGISTRY_H_

#include "model/linux/include/squashlab/abi.h"

namespace squashlab::linux_bridge {

// Called by register_filesystem during a module's init.
void RegisterFilesystem(::file_system_type* fs);
// Runs `init` (a module's init function) and returns the file system it
// registered (nullptr if none).
::file_system_type* RunModuleInit(int (*init)(void), int* err);

struct MountRequest {
  ::block_device* bdev = nullptr;
  ::super_block* sb = nullptr;  // set by get_tree_bdev
};

}  // namespace squashlab::linux_bridge

#endif  // SQUASHLAB_MODEL_LINUX_BRIDGE_REGISTRY_H_
