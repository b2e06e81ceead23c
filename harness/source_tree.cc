// SPDX-License-Identifier: GPL-2.0-only
// This file implements the loading of a user's tree.
#include "harness/source_tree.h"

#include "harness/linux_mount.h"
#include "model/linux/source_build.h"

namespace squashlab {

StatusOr<LoadedSourceTree> LoadSourceTree(const std::string& dir,
                                          std::ostream* log) {
  auto tree = BuildSourceTree(dir, log);
  if (!tree.ok()) return tree.status();
  RegisterSourceTree(*tree);
  return LoadedSourceTree{tree->dir, tree->cached, tree->by_mount};
}

}  // namespace squashlab
