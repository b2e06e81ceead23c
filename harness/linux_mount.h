// SPDX-License-Identifier: GPL-2.0-only
// This file implements the mount of a real kernel module (model/linux) for
// one run: the device as for any variant, then a "mount" task that runs the
// module's own mount (fs_context, fill_super), looks each file up through
// its ->lookup, and starts the workload; at quiescence the module's kill_sb
// tears the mount down, so what the real code leaked is what is left.
#ifndef SQUASHLAB_HARNESS_LINUX_MOUNT_H_
#define SQUASHLAB_HARNESS_LINUX_MOUNT_H_

#include <functional>
#include <string>
#include <vector>

#include "harness/mount.h"
#include "model/kernel/kernel.h"
#include "reader/status.h"

namespace squashlab {

class Kernel;
struct LinuxModule;

struct SourceTree;

// The real-code read paths: "linux-6.12", "linux-6.1", and "linux-src" once
// a user's tree is registered.
std::vector<std::string> LinuxVariantNames();
// Whether `variant` names real kernel code.
bool IsLinuxVariant(const std::string& variant);
// The MM that drives real-code read path `variant`: 6.1's for linux-6.1 and
// for a user's tree whose decompressor strategy is fixed at build time (as
// before 6.2), 6.12's otherwise.
MmEra LinuxMmEra(const std::string& variant);
// Makes "linux-src" the tree built from a user's directory (verify --source).
void RegisterSourceTree(const SourceTree& tree);
// The strategies a real-code read path builds.
bool LinuxBuildsStrategy(const std::string& decomp);
// The module for variant x decompressor strategy (6.12 chooses the strategy
// at mount; 6.1 at build). Mount options go to *options.
StatusOr<const LinuxModule*> LinuxModuleFor(const std::string& variant,
                                            const std::string& decomp,
                                            std::string* options);

// Spawns the mount task over m's device; `started` runs in it once each
// of `names` (the files the workload reads) has its inode in m (the
// workload's spawn). A lookup scans its directory: looking up only these
// keeps the mount's work small on an image of many files.
void SpawnLinuxMount(Kernel& k, SquashfsMount* m, const ImageModel& image,
                     const std::vector<std::string>& names,
                     const LinuxModule* module, const std::string& options,
                     std::function<void()> started);

}  // namespace squashlab

#endif  // SQUASHLAB_HARNESS_LINUX_MOUNT_H_
