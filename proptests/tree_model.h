// SPDX-License-Identifier: GPL-2.0-only
// This file implements TreeModel: a source tree described as data, so that
// RapidCheck can generate and shrink it, write it to disk for a producer
// (mksquashfs, gensquashfs), and compare it with what the reader decodes.
#ifndef SQUASHLAB_PROPTESTS_TREE_MODEL_H_
#define SQUASHLAB_PROPTESTS_TREE_MODEL_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "reader/image.h"

namespace squashlab::proptests {

enum class NodeKind { kFile, kDir, kSymlink, kFifo, kHardLink };

struct Node {
  std::string name;
  NodeKind kind = NodeKind::kFile;
  uint32_t mode = 0644;
  uint32_t mtime = 1600000000;
  // Files: size, content seed, and holes (offset, length) written as sparse.
  uint64_t size = 0;
  uint32_t seed = 0;
  std::vector<std::pair<uint64_t, uint64_t>> holes;
  std::string symlink_target;
  std::vector<std::pair<std::string, std::string>> xattrs;  // "user.x" -> value
  size_t link_to = 0;            // kHardLink: index of a kFile node in the tree
  std::vector<size_t> children;  // kDir: indexes of nodes
};

// nodes[0] is the root directory.
struct TreeModel {
  std::vector<Node> nodes;
};

// For RapidCheck's counterexamples: one line per node.
void showValue(const TreeModel& t, std::ostream& os);

// The byte at `offset` of a file node's content (0 inside holes).
uint8_t ContentByte(const Node& n, uint64_t offset);

// Writes the tree below `dir` (which must not exist). Returns false and a
// message when the host file system refuses something (e.g. xattrs).
bool Materialize(const TreeModel& t, const std::string& dir, std::string* why);

struct CompareOptions {
  bool expect_xattrs = true;
  bool expect_times = true;
  bool expect_root_time = true;  // gensquashfs does not keep the root's mtime
  bool expect_hard_links =
      true;  // gensquashfs --pack-dir stores each link apart
};

// Compares the image with the tree, path by path; returns "" when equal,
// else a description of the first difference.
std::string CompareImage(Image* image, const TreeModel& t,
                         const CompareOptions& opts);

}  // namespace squashlab::proptests

#endif  // SQUASHLAB_PROPTESTS_TREE_MODEL_H_
