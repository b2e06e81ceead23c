// SPDX-License-Identifier: GPL-2.0-only
// This file implements ImageModel: what the model needs of a real SquashFS
// image, decoded once by the reader (the oracle) outside any run — the
// image bytes, the superblock facts, and for each regular file of the tree
// its path, block list, fragment and expected content.
#ifndef SQUASHLAB_HARNESS_IMAGE_MODEL_H_
#define SQUASHLAB_HARNESS_IMAGE_MODEL_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "reader/file_layout.h"
#include "reader/status.h"
#include "reader/superblock.h"

namespace squashlab {

struct FileModel {
  std::string name;  // the path from the root, no leading '/'
  FileLayout layout;
  std::string content;  // what every read must return (the oracle)
};

// Every inode of the tree as the oracle decodes it, for the name
// operations (lookup, getdents, readlink, xattrs).
struct NodeModel {
  std::string path;     // from the root, no leading '/'; "" for the root
  unsigned type = 0;    // the reader's InodeType, as its number
  uint32_t ino = 0;     // the inode number
  uint32_t parent = 0;  // directories: the parent's inode number
  std::string target;   // symlinks: the link's target
  std::vector<std::pair<std::string, std::string>> xattrs;  // name, value
  struct Entry {
    std::string name;
    uint32_t ino = 0;
    unsigned type = 0;  // InodeType, as the entry states it
  };
  std::vector<Entry> entries;  // directories: in directory order
};

struct ImageModel {
  std::vector<uint8_t> bytes;
  uint32_t block_size = 0;
  CompressorId compressor = CompressorId::kGzip;
  uint64_t bytes_used = 0;
  std::vector<FileModel> files;
  // Every symlink, its content the target (what reading its page returns:
  // readlink), in directory order.
  std::vector<FileModel> symlinks;
  // Every inode reached from the root (the root first, then depth first
  // in directory order).
  std::vector<NodeModel> nodes;

  const FileModel* Find(const std::string& name) const;
  // [start, end) of every compressed data block and fragment (fault plans
  // flip bits only where the codec can notice).
  std::vector<std::pair<uint64_t, uint64_t>> CompressedRanges() const;
};

// Decodes `bytes` with the reader; every regular file of the tree becomes a
// FileModel named by its path from the root ("a/b/ls"), in directory order.
StatusOr<ImageModel> LoadImageModel(std::vector<uint8_t> bytes);
StatusOr<ImageModel> LoadImageModelFile(const std::string& path);

}  // namespace squashlab

#endif  // SQUASHLAB_HARNESS_IMAGE_MODEL_H_
