// SPDX-License-Identifier: GPL-2.0-only
// This file declares the images a verify job explores: each --image (a
// file, or every SquashFS image of a directory), each --shape of the image
// generator's matrix, or else the embedded image; each decoded once and,
// with --file, narrowed to the files the readers are aimed at.
#ifndef SQUASHLAB_HARNESS_VERIFY_VERIFY_IMAGES_H_
#define SQUASHLAB_HARNESS_VERIFY_VERIFY_IMAGES_H_

#include <memory>
#include <string>
#include <vector>

#include "harness/image_model.h"
#include "reader/status.h"

namespace squashlab {

struct VerifyImage {
  // The scenario names' "@label": a shape's name, an image file's name
  // without its extension, "embedded" for the embedded image; "" when the
  // job has one image (its tokens replay with that --image, as always).
  std::string label;
  std::string origin;  // a path, "shape NAME" or "the embedded image"
  std::shared_ptr<const ImageModel> model;
};

struct ImageChoice {
  std::vector<std::string> images;  // files or directories
  // Shape names, "embedded" (the embedded image), "default" (the
  // generator's default shapes and the embedded image) or "all".
  std::vector<std::string> shapes;
  std::vector<std::string> files;  // paths in the image; empty: every file
};

// The job's images, in the order given (images, then shapes). None given:
// the embedded image. A --file path that is not a regular file of an image
// is an error naming both.
StatusOr<std::vector<VerifyImage>> ResolveImages(const ImageChoice& choice);

// The image a scenario's label names among `choice`'s (for repro): with a
// label, the image of that label, else a shape of that name; without one,
// the single image the choice gives (or the embedded one).
StatusOr<std::shared_ptr<const ImageModel>> ResolveImageLabel(
    const ImageChoice& choice, const std::string& label);

// The shape names a --shape list stands for ("default", "all", names),
// each checked against the matrix.
StatusOr<std::vector<std::string>> ExpandShapes(
    const std::vector<std::string>& shapes);

}  // namespace squashlab

#endif  // SQUASHLAB_HARNESS_VERIFY_VERIFY_IMAGES_H_
