// SPDX-License-Identifier: GPL-2.0-only
// This file gathers the image generator's API: the shape matrix, building
// a shape's image with its real producer, and the image cache.
#ifndef SQUASHLAB_HARNESS_IMAGES_IMAGES_H_
#define SQUASHLAB_HARNESS_IMAGES_IMAGES_H_

#include "harness/images/build.h"        // IWYU pragma: export
#include "harness/images/image_cache.h"  // IWYU pragma: export
#include "harness/images/image_check.h"  // IWYU pragma: export
#include "harness/images/shape.h"        // IWYU pragma: export

#endif  // SQUASHLAB_HARNESS_IMAGES_IMAGES_H_
