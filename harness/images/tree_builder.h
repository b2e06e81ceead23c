// SPDX-License-Identifier: GPL-2.0-only
// This file declares TreeBuilder, which the parts (content_parts.cc) use to
// add entries to a tree: parents are created as needed, every entry gets a
// seed from its path and a time from its position, so that a part's
// entries do not depend on the other parts of the shape.
#ifndef SQUASHLAB_HARNESS_IMAGES_TREE_BUILDER_H_
#define SQUASHLAB_HARNESS_IMAGES_TREE_BUILDER_H_

#include <cstdint>
#include <deque>
#include <string>

#include "harness/images/content.h"

namespace squashlab::images {

class TreeBuilder {
 public:
  explicit TreeBuilder(uint32_t block_size) : block_size_(block_size) {}

  uint32_t block_size() const { return block_size_; }

  // Each returns the new entry (references stay valid while building).
  Entry& File(const std::string& path, uint64_t size, Fill fill);
  Entry& Dir(const std::string& path);
  Entry& Symlink(const std::string& path, const std::string& target);
  Entry& HardLink(const std::string& path, const std::string& existing);

  // With `incompressible`, every file that is not all zero is random.
  Tree Finish(bool incompressible);

 private:
  Entry& Add(EntryKind kind, const std::string& path);
  void EnsureParents(const std::string& path);
  Entry* Find(const std::string& path);

  uint32_t block_size_;
  std::deque<Entry> entries_;
};

// Adds part `p`'s entries (content_parts.cc).
void AddPart(Part p, TreeBuilder& b);

}  // namespace squashlab::images

#endif  // SQUASHLAB_HARNESS_IMAGES_TREE_BUILDER_H_
