// SPDX-License-Identifier: GPL-2.0-only
// This file implements ImageSpec: a small SquashFS image described as data
// (codec, block size, mksquashfs options, and a few files in the root whose
// sizes sit on block and page boundaries, with zero, random, text-like or
// mixed content), so that RapidCheck can generate and shrink it. PackImage
// makes the image with the real mksquashfs and decodes it into the model's
// ImageModel, after checking the reader's decoding against the generated
// content (so the variants' oracle does not rest on the reader alone).
#ifndef SQUASHLAB_PROPTESTS_IMAGE_GEN_H_
#define SQUASHLAB_PROPTESTS_IMAGE_GEN_H_

#include <rapidcheck.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "harness/image_model.h"
#include "reader/status.h"

namespace squashlab::proptests {

enum class ContentKind { kZeros, kRandom, kText, kMixed };

struct GenFile {
  uint64_t size = 0;
  ContentKind kind = ContentKind::kText;
  uint32_t seed = 0;
};

struct ImageSpec {
  std::string comp = "gzip";
  uint32_t block_size = 131072;
  std::vector<std::string> flags;  // mksquashfs options
  std::vector<GenFile> files;      // written as f0, f1, ... in the root
  std::string Describe() const;
};

void showValue(const ImageSpec& s, std::ostream& os);

// A value in [lo, hi), uniform whatever the case's size (rc::gen::inRange
// scales its range with the size: early cases would only ever take `lo`),
// shrinking towards lo.
template <typename T>
T Uniform(T lo, T hi) {
  return *rc::gen::resize(rc::kNominalSize, rc::gen::inRange<T>(lo, hi));
}

// One of `choices`, uniform, shrinking towards the first (rc::gen::element
// never shrinks): list the simplest choice first.
template <typename T>
T Pick(const std::vector<T>& choices) {
  return choices[Uniform<size_t>(0, choices.size())];
}

// The bytes of a generated file.
std::string GenContent(const GenFile& f);

// 1 to 3 files; the first is never empty.
rc::Gen<ImageSpec> GenImageSpec();

// Packs `spec` with mksquashfs (in $TEST_TMPDIR) and decodes it. The last
// few images are cached, so that a case shrinking around one image, or
// every variant of one case, packs it once. Not thread-safe.
StatusOr<std::shared_ptr<const ImageModel>> PackImage(const ImageSpec& spec);

}  // namespace squashlab::proptests

#endif  // SQUASHLAB_PROPTESTS_IMAGE_GEN_H_
