// SPDX-License-Identifier: GPL-2.0-only
// This file declares the check that an image holds the tree it was packed
// from, as the reader (the lab's data oracle) decodes it. The producers
// are not infallible: mksquashfs 4.5.1 with -always-use-fragments and
// duplicate detection now and then writes an image whose fragment table
// runs into the next fragment block and the inode table. Judged on such an
// image, a correct kernel would be reported for bytes the image never
// held, so no image enters the lab unchecked.
#ifndef SQUASHLAB_HARNESS_IMAGES_IMAGE_CHECK_H_
#define SQUASHLAB_HARNESS_IMAGES_IMAGE_CHECK_H_

#include <string>

#include "harness/images/content.h"
#include "reader/status.h"

namespace squashlab::images {

// Ok when every entry of `tree` is in `image_path`: each file with its
// size and bytes, each symlink with its target, each hard link on its
// target's inode. Otherwise Corruption naming the first entry that is not.
Status CheckImageHoldsTree(const std::string& image_path, const Tree& tree);

}  // namespace squashlab::images

#endif  // SQUASHLAB_HARNESS_IMAGES_IMAGE_CHECK_H_
