// SPDX-License-Identifier: GPL-2.0-only
// This file implements CheckImageHoldsTree: every entry of the tree looked
// up through the reader, every file read back in pieces and compared with
// the bytes the tree generates.
#include "harness/images/image_check.h"

#include <algorithm>
#include <map>
#include <memory>
#include <span>
#include <vector>

#include "reader/image.h"

namespace squashlab::images {

namespace {

Status CompareFile(squashlab::Image& img, const Inode& ino, const Entry& e) {
  if (ino.type != InodeType::kFile)
    return Status::Corruption("not a regular file");
  if (ino.file_size != e.size)
    return Status::Corruption(std::to_string(ino.file_size) + " bytes, not " +
                              std::to_string(e.size));
  constexpr size_t kPiece = 1 << 20;
  std::vector<uint8_t> got(kPiece), want(kPiece);
  for (uint64_t off = 0; off < e.size; off += kPiece) {
    const size_t n =
        static_cast<size_t>(std::min<uint64_t>(kPiece, e.size - off));
    SQL_ASSIGN_OR_RETURN(
        size_t read, img.ReadFile(ino, off, std::span<uint8_t>(got.data(), n)));
    if (read != n)
      return Status::Corruption("short read at byte " + std::to_string(off));
    FillBytes(e, off, want.data(), n);
    const auto diff = std::mismatch(got.begin(), got.begin() + n, want.begin());
    if (diff.first != got.begin() + n)
      return Status::Corruption(
          "byte " + std::to_string(off + (diff.first - got.begin())) +
          " differs");
  }
  return Status::Ok();
}

}  // namespace

Status CheckImageHoldsTree(const std::string& image_path, const Tree& tree) {
  SQL_ASSIGN_OR_RETURN(std::unique_ptr<squashlab::Image> img,
                       squashlab::Image::Open(image_path));
  std::map<std::string, uint32_t> inode_of;
  for (const Entry& e : tree.entries) {
    auto ino = img->Lookup(e.path);
    Status st = ino.status();
    if (st.ok()) {
      inode_of[e.path] = ino->inode_number;
      switch (e.kind) {
        case EntryKind::kFile:
          st = CompareFile(*img, *ino, e);
          break;
        case EntryKind::kSymlink:
          if (ino->type != InodeType::kSymlink ||
              ino->symlink_target != e.target)
            st = Status::Corruption("symlink target differs");
          break;
        case EntryKind::kHardLink:
          if (ino->inode_number != inode_of[e.target])
            st = Status::Corruption("not a link to " + e.target);
          break;
        case EntryKind::kDir:
          if (ino->type != InodeType::kDirectory)
            st = Status::Corruption("not a directory");
          break;
      }
    }
    if (!st.ok())
      return Status::Corruption("the image does not hold /" + e.path + ": " +
                                st.ToString());
  }
  return Status::Ok();
}

}  // namespace squashlab::images
