// SPDX-License-Identifier: GPL-2.0-only
// This file declares BuildImage: a shape's tree generated and packed by
// its real producer into an image file, the same bytes on every run.
#ifndef SQUASHLAB_HARNESS_IMAGES_BUILD_H_
#define SQUASHLAB_HARNESS_IMAGES_BUILD_H_

#include <string>

#include "harness/images/shape.h"
#include "reader/status.h"

namespace squashlab::images {

// Writes the image of `shape` to `out_path` (replacing it) and returns
// out_path. The tree is written to a temporary directory beside out_path
// (its file system must hold user.* xattrs) and removed afterwards; the
// image appears under its name only when the producer succeeded and the
// reader finds the tree in it (image_check.h; a wrong image is packed
// again, three times in all, then Corruption). A producer failure names
// the command and what it printed.
StatusOr<std::string> BuildImage(const Shape& shape,
                                 const std::string& out_path);

}  // namespace squashlab::images

#endif  // SQUASHLAB_HARNESS_IMAGES_BUILD_H_
