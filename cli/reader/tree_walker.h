// SPDX-License-Identifier: GPL-2.0-only
// This file implements WalkTree: a pre-order walk of an image's directory
// tree in stored order, iterative (no recursion depth to exhaust) and with
// directory-loop detection.
#ifndef SQUASHLAB_CLI_READER_TREE_WALKER_H_
#define SQUASHLAB_CLI_READER_TREE_WALKER_H_

#include <functional>
#include <string>

#include "reader/image.h"

namespace squashlab::cli {

struct WalkItem {
  std::string path;  // "/" for the root, "/a/b" below it
  Inode inode;
};

// Visits `start` (at image path start_path), then, when `recursive`, every
// inode below it. `leave`, when given, is called with each directory visited
// (start included) once everything below it has been visited. Stops at the
// first error from the image, from visit or from leave.
Status WalkTree(Image* image, const std::string& start_path, const Inode& start,
                bool recursive,
                const std::function<Status(const WalkItem&)>& visit,
                const std::function<Status(const WalkItem&)>& leave = nullptr);

// Joins an image path and a name: ("/", "a") -> "/a", ("/a", "b") -> "/a/b".
std::string JoinImagePath(const std::string& dir, const std::string& name);

// Canonical image path for a user-given path: "a//b/" -> "/a/b", "" -> "/".
std::string CanonicalImagePath(const std::string& path);

}  // namespace squashlab::cli

#endif  // SQUASHLAB_CLI_READER_TREE_WALKER_H_
