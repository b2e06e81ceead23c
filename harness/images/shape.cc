// SPDX-License-Identifier: GPL-2.0-only
// This file implements the shape helpers: lookup by name, the names of
// producers, parts and block sizes, and a shape's canonical definition.
#include "harness/images/shape.h"

#include <sstream>

namespace squashlab::images {

const Shape* FindShape(const std::string& name) {
  for (const Shape& s : AllShapes())
    if (s.name == name) return &s;
  return nullptr;
}

const char* ProducerName(Producer p) {
  switch (p) {
    case Producer::kMksquashfs:
      return "mksquashfs";
    case Producer::kGensquashfs:
      return "gensquashfs";
    case Producer::kGensquashfsPackFile:
      return "gensquashfs -F";
  }
  return "?";
}

const char* PartName(Part p) {
  switch (p) {
    case Part::kBoundaries:
      return "boundaries";
    case Part::kTails:
      return "tails";
    case Part::kSparse:
      return "sparse";
    case Part::kIncompressible:
      return "incompressible";
    case Part::kText:
      return "text";
    case Part::kDuplicates:
      return "duplicates";
    case Part::kSubdirs:
      return "subdirs";
    case Part::kSymlinks:
      return "symlinks";
    case Part::kManySymlinks:
      return "many-symlinks";
    case Part::kXattrs:
      return "xattrs";
    case Part::kManyXattrs:
      return "many-xattrs";
    case Part::kBigDir:
      return "big-dir";
    case Part::kNestedOnly:
      return "nested-only";
    case Part::kLarge:
      return "large";
    case Part::kHardLinks:
      return "hard-links";
    case Part::kOneOfEach:
      return "one-of-each";
  }
  return "?";
}

std::string BlockSizeName(uint32_t block_size) {
  if (block_size % (1024 * 1024) == 0)
    return std::to_string(block_size / (1024 * 1024)) + "M";
  if (block_size % 1024 == 0) return std::to_string(block_size / 1024) + "K";
  return std::to_string(block_size);
}

std::string ShapeDefinition(const Shape& s) {
  std::ostringstream d;
  d << "name=" << s.name << ";producer=" << ProducerName(s.producer)
    << ";codec=" << s.codec << ";block=" << s.block_size << ";codec_options=";
  for (const auto& o : s.codec_options) d << o << ',';
  d << ";options=";
  for (const auto& o : s.options) d << o << ',';
  d << ";parts=";
  for (Part p : s.parts) d << PartName(p) << ',';
  d << ";incompressible=" << s.incompressible;
  return d.str();
}

}  // namespace squashlab::images
