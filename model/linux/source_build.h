// SPDX-License-Identifier: GPL-2.0-only
// This file implements building a user's fs/squashfs tree at run time: the
// files of the read path are compiled with the system C compiler against the
// header layer (installed beside the binary) into loadable modules, one per
// decompressor strategy the tree builds (a tree that chooses the strategy at
// mount, like 6.12, gives one module), each linked with the kernel's lib/
// decompressors: the tree's own when DIR is a whole kernel tree, else the
// linux-source package's of the matching version (6.12's for a tree that
// chooses its strategy at mount, 6.1's otherwise), installed beside the
// binary. Builds are cached by the contents of the tree, the decompressors,
// the header layer and the flags; the decompressors are compiled once.
#ifndef SQUASHLAB_MODEL_LINUX_SOURCE_BUILD_H_
#define SQUASHLAB_MODEL_LINUX_SOURCE_BUILD_H_

#include <map>
#include <ostream>
#include <string>

#include "model/linux/module.h"
#include "reader/status.h"

namespace squashlab {

struct SourceTree {
  std::string dir;        // the fs/squashfs directory used
  bool by_mount = false;  // threads= chooses the strategy (6.2+)
  // "single", "multi", "percpu" -> its module (by_mount: the same one).
  std::map<std::string, const LinuxModule*> modules;
  bool cached = false;  // every module came from the cache
  // Where its lib/ decompressors came from: the kernel tree's root, or
  // "linux-source-6.12" / "linux-source-6.1" (the package's).
  std::string decompressors;
};

// DIR is a fs/squashfs directory or a kernel tree's root. Compiler output
// is written to `log` as the compiler printed it; a failed build returns an
// error naming what the header layer lacks when that is the cause.
// `kcsan`: compiled as a KCSAN kernel is (-fsanitize=thread; its calls
// renamed to the executable's runtime, model/kernel/checkers/kcsan_runtime.cc)
// instead of KASAN's instrumentation, which it cannot be combined with.
StatusOr<SourceTree> BuildSourceTree(const std::string& dir, std::ostream* log,
                                     bool kcsan = false);

// The kernel C flags every module is built with (also the built-in ones:
// kernel_module.bzl keeps its own copy of the list: change both).
const std::vector<std::string>& KernelCFlags();
// The same with KCSAN's instrumentation in place of KASAN's.
const std::vector<std::string>& KcsanCFlags();

// The header layer's include directory beside the running binary (or
// $SQUASHLAB_LINUX_INCLUDE); empty if not found.
std::string HeaderLayerDir();

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_LINUX_SOURCE_BUILD_H_
