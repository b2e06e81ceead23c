// SPDX-License-Identifier: GPL-2.0-only
// This file declares the lab's embedded default image (8K blocks, gzip, a
// few small files): its bytes are generated into small_image.cc by
// harness/embed.sh at build time.
#ifndef SQUASHLAB_HARNESS_SMALL_IMAGE_H_
#define SQUASHLAB_HARNESS_SMALL_IMAGE_H_

#include <cstdint>
#include <span>

namespace squashlab {

std::span<const uint8_t> EmbeddedSmallImage();

}  // namespace squashlab

#endif  // SQUASHLAB_HARNESS_SMALL_IMAGE_H_
