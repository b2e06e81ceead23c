// SPDX-License-Identifier: GPL-2.0-only
// This file implements the decoding of an image into an ImageModel.
#include "harness/image_model.h"

#include <fstream>
#include <iterator>

#include "reader/image.h"

namespace squashlab {

const FileModel* ImageModel::Find(const std::string& name) const {
  for (const auto& f : files)
    if (f.name == name) return &f;
  return nullptr;
}

std::vector<std::pair<uint64_t, uint64_t>> ImageModel::CompressedRanges()
    const {
  std::vector<std::pair<uint64_t, uint64_t>> r;
  for (const auto& f : files) {
    for (const auto& b : f.layout.blocks)
      if (b.compressed && b.stored_size)
        r.emplace_back(b.start, b.start + b.stored_size);
    if (f.layout.has_tail && f.layout.fragment.compressed)
      r.emplace_back(f.layout.fragment.start,
                     f.layout.fragment.start + f.layout.fragment.stored_size);
  }
  return r;
}

namespace {

// Deeper than any real tree; a corrupted image's directory loop ends here.
constexpr int kMaxDepth = 64;

Status AddFile(Image& img, const DirEntry& e, const std::string& path,
               ImageModel& m) {
  auto ino = img.ReadInode(e);
  if (!ino.ok()) return ino.status();
  auto layout = img.Layout(ino.value());
  if (!layout.ok()) return layout.status();
  FileModel f;
  f.name = path;
  f.layout = layout.value();
  f.content.resize(f.layout.file_size);
  auto n = img.ReadFile(
      ino.value(), 0,
      std::span<uint8_t>(reinterpret_cast<uint8_t*>(f.content.data()),
                         f.content.size()));
  if (!n.ok()) return n.status();
  m.files.push_back(std::move(f));
  return Status::Ok();
}

// What the oracle knows of inode `ino` at `path` besides its data. The
// regular files are what every workload needs: what fails to decode here
// (an xattr table the reader refuses) leaves the node out, not the image.
void AddNode(Image& img, const Inode& ino, const std::string& path,
             ImageModel& m) {
  NodeModel n;
  n.path = path;
  n.type = static_cast<unsigned>(ino.type);
  n.ino = ino.inode_number;
  n.parent = ino.parent_inode;
  n.target = ino.symlink_target;
  if (ino.xattr_index != kNoXattr) {
    auto xs = img.ListXattrs(ino);
    if (!xs.ok()) return;
    for (const Xattr& x : xs.value()) n.xattrs.emplace_back(x.name, x.value);
  }
  m.nodes.push_back(std::move(n));
}

// Every inode under `dir`, depth first in directory order, named by its
// path from the root ("a/b/ls"); regular files also as FileModels.
Status AddTree(Image& img, const Inode& dir, const std::string& prefix,
               int depth, ImageModel& m) {
  if (depth > kMaxDepth)
    return Status::Corruption("directories nested deeper than " +
                              std::to_string(kMaxDepth) + " at " + prefix);
  auto entries = img.ReadDir(dir);
  if (!entries.ok()) return entries.status();
  const size_t before = m.nodes.size();
  AddNode(img, dir, prefix, m);
  if (m.nodes.size() > before)
    for (const DirEntry& e : entries.value())
      m.nodes.back().entries.push_back(NodeModel::Entry{
          e.name, e.inode_number, static_cast<unsigned>(e.type)});
  for (const DirEntry& e : entries.value()) {
    const std::string path = prefix.empty() ? e.name : prefix + "/" + e.name;
    if (e.type == InodeType::kFile) {
      Status s = AddFile(img, e, path, m);
      if (!s.ok()) return s;
    }
    if (e.type == InodeType::kSymlink) {
      auto ino = img.ReadInode(e);
      if (!ino.ok()) return ino.status();
      FileModel l;
      l.name = path;
      l.content = ino.value().symlink_target;
      m.symlinks.push_back(std::move(l));
    }
    if (e.type == InodeType::kDirectory) {
      auto sub = img.ReadInode(e);
      if (!sub.ok()) return sub.status();
      Status s = AddTree(img, sub.value(), path, depth + 1, m);
      if (!s.ok()) return s;
    } else if (auto ino = img.ReadInode(e); ino.ok()) {
      AddNode(img, ino.value(), path, m);
    }
  }
  return Status::Ok();
}

}  // namespace

StatusOr<ImageModel> LoadImageModel(std::vector<uint8_t> bytes) {
  ImageModel m;
  m.bytes = bytes;
  auto opened = Image::OpenBytes(std::move(bytes));
  if (!opened.ok()) return opened.status();
  Image& img = *opened.value();
  m.block_size = img.superblock().block_size;
  m.compressor = img.superblock().compressor;
  m.bytes_used = img.superblock().bytes_used;
  auto root = img.Root();
  if (!root.ok()) return root.status();
  Status s = AddTree(img, root.value(), "", 0, m);
  if (!s.ok()) return s;
  return m;
}

StatusOr<ImageModel> LoadImageModelFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::NotFound("cannot open image " + path);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  return LoadImageModel(std::move(bytes));
}

}  // namespace squashlab
