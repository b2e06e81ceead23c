// SPDX-License-Identifier: GPL-2.0-only
// This file implements GenTree.
#include "proptests/tree_gen.h"

#include <map>
#include <set>

namespace squashlab::proptests {
namespace {

constexpr uint64_t kMaxTreeBytes = 6
                                   << 20;  // keeps one case well under a second

std::string GenName(std::set<std::string>* taken) {
  // Printable ASCII, space, newline, '-' first, and bytes of UTF-8 and beyond;
  // never '/' or NUL.
  std::string name;
  if (*rc::gen::inRange(0, 20) == 0) {
    name = std::string(255, 'n');
  } else {
    const int len = *rc::gen::inRange(1, 24);
    for (int i = 0; i < len; ++i) {
      int c = *rc::gen::oneOf(
          rc::gen::inRange(0x61, 0x7b), rc::gen::inRange(0x20, 0x7f),
          rc::gen::inRange(0x80, 0x100), rc::gen::just(0x0a));
      if (c == '/') c = '_';
      name.push_back(static_cast<char>(c));
    }
  }
  if (name == "." || name == "..") name += "x";
  for (int k = 0; !taken->insert(name).second; ++k) {
    if (name.size() > 250) name.resize(240);
    name += "_" + std::to_string(k);
  }
  return name;
}

uint64_t GenSize(uint32_t bs) {
  return *rc::gen::oneOf(rc::gen::element<uint64_t>(0, 1, bs - 1, bs, bs + 1,
                                                    2ull * bs, 2ull * bs + 7),
                         rc::gen::inRange<uint64_t>(0, 3ull * bs + 1));
}

Node GenFile(uint32_t bs) {
  Node n;
  n.kind = NodeKind::kFile;
  n.size = GenSize(bs);
  n.seed = *rc::gen::arbitrary<uint32_t>();
  if (n.size > 2ull * bs && *rc::gen::inRange(0, 3) == 0) {
    n.holes.emplace_back(static_cast<uint64_t>(bs),
                         static_cast<uint64_t>(bs));  // one whole block
  }
  return n;
}

void AddCommon(Node* n) {
  n->mode = *rc::gen::element<uint32_t>(0644, 0600, 0755, 0700, 0444, 04755,
                                        02755, 01777, 0);
  n->mtime = *rc::gen::inRange<uint32_t>(0, 0x7fffffff);
  // Linux allows user.* xattrs on regular files and directories only.
  const bool xattrs_allowed =
      n->kind == NodeKind::kFile || n->kind == NodeKind::kDir;
  if (xattrs_allowed && *rc::gen::inRange(0, 4) == 0) {
    const int count = *rc::gen::inRange(1, 3);
    for (int i = 0; i < count; ++i) {
      // At least one byte: gensquashfs drops empty values (the kernel then
      // shows none, so that is the producer's choice, not a reader bug).
      const size_t len = *rc::gen::inRange<size_t>(1, 300);
      n->xattrs.emplace_back("user.k" + std::to_string(i),
                             std::string(len, static_cast<char>('a' + i)));
    }
  }
}

TreeModel Build(uint32_t bs) {
  TreeModel t;
  Node root;
  root.kind = NodeKind::kDir;
  t.nodes.push_back(root);
  AddCommon(&t.nodes[0]);
  t.nodes[0].mode = 0755;
  t.nodes[0].xattrs.clear();  // gensquashfs does not keep the root's xattrs
  std::vector<size_t> dirs{0}, files;
  std::map<size_t, std::set<std::string>> names;  // node index -> names taken
  uint64_t bytes = 0;
  const int count = *rc::gen::inRange(0, 40);
  for (int k = 0; k < count; ++k) {
    const size_t parent = dirs[*rc::gen::inRange<size_t>(0, dirs.size())];
    const int kind = *rc::gen::inRange(0, 10);
    Node n;
    if (kind < 5) {
      n = GenFile(bs);
      if (bytes + n.size > kMaxTreeBytes) n.size = 0, n.holes.clear();
      bytes += n.size;
    } else if (kind < 7) {
      n.kind = NodeKind::kDir;
    } else if (kind < 8) {
      n.kind = NodeKind::kSymlink;
      n.symlink_target =
          *rc::gen::oneOf(rc::gen::just(std::string("target")),
                          rc::gen::just(std::string(3000, 'l')),
                          rc::gen::just(std::string("../no/such")));
    } else if (kind < 9) {
      n.kind = NodeKind::kFifo;
    } else if (!files.empty()) {
      n.kind = NodeKind::kHardLink;
      n.link_to = files[*rc::gen::inRange<size_t>(0, files.size())];
    } else {
      continue;
    }
    n.name = GenName(&names[parent]);
    if (n.kind != NodeKind::kHardLink) AddCommon(&n);
    if (n.kind == NodeKind::kDir)
      n.mode |= 0700;  // the producer must be able to read it back
    const size_t index = t.nodes.size();
    t.nodes.push_back(std::move(n));
    t.nodes[parent].children.push_back(index);
    if (t.nodes[index].kind == NodeKind::kDir) {
      dirs.push_back(index);
    }
    if (t.nodes[index].kind == NodeKind::kFile) files.push_back(index);
  }
  if (*rc::gen::inRange(0, 8) ==
      0) {  // a large directory: several metadata blocks and an index
    Node big;
    big.kind = NodeKind::kDir;
    big.mode = 0755;
    big.name = GenName(&names[0]);
    const size_t index = t.nodes.size();
    t.nodes.push_back(big);
    t.nodes[0].children.push_back(index);
    const int entries = *rc::gen::inRange(300, 700);
    for (int i = 0; i < entries; ++i) {
      Node f;
      f.kind = NodeKind::kFile;
      f.size = static_cast<uint64_t>(i % 7);
      f.seed = static_cast<uint32_t>(i);
      f.name = "entry_" + std::to_string(i);
      t.nodes[index].children.push_back(t.nodes.size());
      t.nodes.push_back(f);
    }
  }
  return t;
}

}  // namespace

rc::Gen<TreeModel> GenTree(uint32_t block_size) {
  return rc::gen::exec([block_size] { return Build(block_size); });
}

}  // namespace squashlab::proptests
