// SPDX-License-Identifier: GPL-2.0-only
// This file implements TreeBuilder and MakeTree: a shape's parts added one
// after the other into one tree.
#include "harness/images/tree_builder.h"

#include <algorithm>

namespace squashlab::images {
namespace {

uint64_t PathSeed(const std::string& path) {
  uint64_t h = 14695981039346656037ULL;
  for (unsigned char c : path) h = (h ^ c) * 1099511628211ULL;
  return h;
}

}  // namespace

Entry* TreeBuilder::Find(const std::string& path) {
  auto it = std::find_if(entries_.begin(), entries_.end(),
                         [&](const Entry& e) { return e.path == path; });
  return it == entries_.end() ? nullptr : &*it;
}

void TreeBuilder::EnsureParents(const std::string& path) {
  for (size_t slash = path.find('/'); slash != std::string::npos;
       slash = path.find('/', slash + 1)) {
    std::string parent = path.substr(0, slash);
    if (!Find(parent)) Add(EntryKind::kDir, parent).mode = 0755;
  }
}

Entry& TreeBuilder::Add(EntryKind kind, const std::string& path) {
  EnsureParents(path);
  Entry& e = entries_.emplace_back();
  e.kind = kind;
  e.path = path;
  e.seed = PathSeed(path);
  e.mtime = kBaseTime + 61 * static_cast<uint32_t>(entries_.size());
  // Owners for pack files (the other producers make every owner root).
  e.uid = entries_.size() % 3 == 0 ? 1000 : 0;
  e.gid = entries_.size() % 4 == 0 ? 100 : 0;
  return e;
}

Entry& TreeBuilder::File(const std::string& path, uint64_t size, Fill fill) {
  Entry& e = Add(EntryKind::kFile, path);
  e.size = size;
  e.fill = fill;
  return e;
}

Entry& TreeBuilder::Dir(const std::string& path) {
  if (Entry* made = Find(path)) return *made;
  Entry& e = Add(EntryKind::kDir, path);
  e.mode = 0755;
  return e;
}

Entry& TreeBuilder::Symlink(const std::string& path,
                            const std::string& target) {
  Entry& e = Add(EntryKind::kSymlink, path);
  e.mode = 0777;
  e.target = target;
  return e;
}

Entry& TreeBuilder::HardLink(const std::string& path,
                             const std::string& existing) {
  Entry& e = Add(EntryKind::kHardLink, path);
  e.target = existing;
  return e;
}

Tree TreeBuilder::Finish(bool incompressible) {
  Tree t;
  for (Entry& e : entries_) {
    if (incompressible && e.kind == EntryKind::kFile && e.fill != Fill::kZero)
      e.fill = Fill::kRandom;
    t.entries.push_back(std::move(e));
  }
  entries_.clear();
  return t;
}

Tree MakeTree(const Shape& shape) {
  TreeBuilder b(shape.block_size);
  for (Part p : shape.parts) AddPart(p, b);
  return b.Finish(shape.incompressible);
}

}  // namespace squashlab::images
