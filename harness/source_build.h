// SPDX-License-Identifier: GPL-2.0-only
// This file gives what is built on the harness the build of a kernel
// tree's fs/squashfs into loadable modules (model/linux/source_build.h:
// BuildSourceTree and its SourceTree), for a build step that needs
// the modules' files themselves (fuzz/build.sh's); a run loads a tree
// through LoadSourceTree (harness/source_tree.h).
#ifndef SQUASHLAB_HARNESS_SOURCE_BUILD_H_
#define SQUASHLAB_HARNESS_SOURCE_BUILD_H_

#include "model/linux/source_build.h"

#endif  // SQUASHLAB_HARNESS_SOURCE_BUILD_H_
