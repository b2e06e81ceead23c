// SPDX-License-Identifier: GPL-2.0-only
// This file implements the walk of one image by real kernel code, as a
// user (or syzkaller's syz_mount_image and the calls after it) makes it:
// the image on a RAM disk, mounted by the tree's own fill_super, then every
// directory listed (getdents) and every name looked up, every regular file
// read in several chunk sizes and its last page read as mmap would show
// it, every symlink's target read, and, when the image has an export
// table, each inode found again by its file handle and each directory's
// parent; at quiescence the unmount, then the model's checks (KASAN,
// kmemleak, lockdep, hung tasks, a bounded number of steps).
#ifndef SQUASHLAB_HARNESS_REALFUZZ_WALK_H_
#define SQUASHLAB_HARNESS_REALFUZZ_WALK_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/kernel/scenario.h"
#include "reader/status.h"

namespace squashlab {

struct LinuxModule;

// The real code a walk mounts: a built-in release or a user's tree.
struct WalkTarget {
  std::string variant;  // "linux-6.12", "linux-6.1", "linux-src"
  std::string decomp = "single";
  const LinuxModule* module = nullptr;
  std::string mount_options;  // "threads=single" on 6.2+
};

// The variant's module (LinuxModuleFor), for `decomp`.
StatusOr<WalkTarget> MakeWalkTarget(const std::string& variant,
                                    const std::string& decomp);

struct WalkLimits {
  size_t entries_per_dir = 256;
  size_t inodes = 256;             // distinct inodes visited
  int depth = 8;                   // directory nesting
  size_t xattrs_per_inode = 64;    // getxattr calls per inode
  uint64_t file_bytes = 1 << 20;   // read per file, all passes together
  uint64_t total_bytes = 4 << 20;  // read per walk
  long max_steps = 400000;         // then "a run exceeded its step budget"
};

// The scenario of one walk over `image` (any bytes; a mount the code
// refuses is a clean run). Its name: "walk/VARIANT/DECOMP".
Scenario MakeWalkScenario(const WalkTarget& target,
                          std::shared_ptr<const std::vector<uint8_t>> image,
                          const WalkLimits& limits = {});

}  // namespace squashlab

#endif  // SQUASHLAB_HARNESS_REALFUZZ_WALK_H_
