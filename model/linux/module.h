// SPDX-License-Identifier: GPL-2.0-only
// This file implements LinuxModule: a real fs/squashfs compiled against the
// header layer into a shared object (built in by Bazel, or compiled at run
// time from a user's tree), loaded once per process, its init run, and its
// registered file_system_type kept; and the mount of it for one run.
#ifndef SQUASHLAB_MODEL_LINUX_MODULE_H_
#define SQUASHLAB_MODEL_LINUX_MODULE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "model/kernel/block_device.h"
#include "model/kernel/fs.h"
#include "reader/status.h"

namespace kabi {  // the header layer's kernel types (include/squashlab/abi.h)
struct file_system_type;
struct super_block;
}  // namespace kabi

namespace squashlab {

class Kernel;

struct LinuxModule {
  std::string name;  // "linux-6.12"
  std::string path;  // the shared object
  kabi::file_system_type* fs_type = nullptr;
};

// The directories `rel` (a path in repository `repo`: this one, or an
// external one such as "linux_6_12") may stand in among the running
// binary's runfiles, in the order to try them: $RUNFILES_DIR, $TEST_SRCDIR,
// then the binary's own .runfiles tree.
std::vector<std::string> RunfilesDirs(const std::string& rel,
                                      const std::string& repo = "squashlab");

// Loads (once per path) the module at `path` and runs its init.
StatusOr<const LinuxModule*> LoadLinuxModule(const std::string& name,
                                             const std::string& path);
// The built-in module `name` ("linux-6.12", "linux-6.1-percpu"...), found
// beside the running binary's runfiles (or in $SQUASHLAB_LINUX_MODULES).
StatusOr<const LinuxModule*> BuiltinLinuxModule(const std::string& name);

// Mounts `module` on `bdev` (holding nr_bytes) with `options`
// ("threads=multi"), through the module's fs_context. Runs in a task: the
// mount reads the device. Returns the super_block or an errno.
kabi::super_block* LinuxMount(Kernel& k, const LinuxModule& module,
                              block_device* bdev, uint64_t nr_bytes,
                              const std::string& options, int* err);
// The model inode (its page cache reads through the real a_ops) of the
// regular file at `path`, found by the real ->lookup from the root.
inode* LinuxLookup(kabi::super_block* sb, const std::string& path, int* err);
// kill_sb: the real teardown; afterwards nothing of the mount is live.
void LinuxUnmount(kabi::super_block* sb);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_LINUX_MODULE_H_
