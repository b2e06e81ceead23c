// SPDX-License-Identifier: GPL-2.0-only
// This file declares how a generated tree reaches the producers: written
// into a directory (files, directories, symlinks, hard links, modes, times,
// user.* xattrs), and described by a gensquashfs pack file.
#ifndef SQUASHLAB_HARNESS_IMAGES_TREE_WRITER_H_
#define SQUASHLAB_HARNESS_IMAGES_TREE_WRITER_H_

#include <string>

#include "harness/images/content.h"
#include "reader/status.h"

namespace squashlab::images {

// Writes `tree` under `root` (an existing, empty directory). Fails with a
// clear message when the file system refuses user.* xattrs.
Status WriteTree(const Tree& tree, const std::string& root);

// Writes a gensquashfs pack file for `tree`: entries with explicit modes
// and owners, file inputs relative to the tree's root directory.
Status WritePackFile(const Tree& tree, const std::string& path);

}  // namespace squashlab::images

#endif  // SQUASHLAB_HARNESS_IMAGES_TREE_WRITER_H_
