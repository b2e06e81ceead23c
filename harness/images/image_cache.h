// SPDX-License-Identifier: GPL-2.0-only
// This file declares the image cache: each shape's image built once and
// kept under $SQUASHLAB_CACHE/images/ (default ~/.cache/squashlab/images/),
// keyed by everything that decides its bytes, so that callers can ask for
// it on every run.
#ifndef SQUASHLAB_HARNESS_IMAGES_IMAGE_CACHE_H_
#define SQUASHLAB_HARNESS_IMAGES_IMAGE_CACHE_H_

#include <string>

#include "harness/images/shape.h"
#include "reader/status.h"

namespace squashlab::images {

// $SQUASHLAB_CACHE/images, else $XDG_CACHE_HOME/squashlab/images, else
// ~/.cache/squashlab/images (the module cache's root, model/linux).
std::string ImageCacheDir();

// 16 hex digits: a hash of the shape's definition, its generated tree, the
// content generator's version and the producer's version.
StatusOr<std::string> ImageKey(const Shape& shape);

// The path of the shape's cached image, NAME-KEY.sqfs, built first if it
// is not there (images of the same name with another key are removed).
// Safe to call from several processes at once.
StatusOr<std::string> CachedImage(const Shape& shape);

}  // namespace squashlab::images

#endif  // SQUASHLAB_HARNESS_IMAGES_IMAGE_CACHE_H_
