// SPDX-License-Identifier: GPL-2.0-only
// This file implements the field map of a SquashFS image (the on-disk
// layout of SquashFS 4.0: Documentation/filesystems/squashfs.rst and
// fs/squashfs/squashfs_fs.h describe it).
#include "harness/realfuzz/image_fields.h"

#include <algorithm>

namespace squashlab {
namespace {

constexpr size_t kSuperblockSize = 96;
constexpr size_t kMetadataSize = 8192;
constexpr uint64_t kInvalid = ~0ULL;
constexpr size_t kMaxFields = 4096;

uint64_t Le(std::span<const uint8_t> b, size_t at, size_t width) {
  uint64_t v = 0;
  for (size_t i = 0; i < width; i++)
    v |= static_cast<uint64_t>(b[at + i]) << (8 * i);
  return v;
}

// The bytes of uncompressed metadata blocks, in stream order, as image
// offsets: a field of the stream maps to the image through it.
struct Stream {
  std::vector<size_t> at;
  bool Has(size_t pos, size_t width) const { return pos + width <= at.size(); }
};

class Parser {
 public:
  explicit Parser(std::span<const uint8_t> image) : img_(image) {}

  ImageFields Run() {
    if (img_.size() < kSuperblockSize) return std::move(out_);
    Superblock();
    const uint64_t inode_start = Le(img_, 64, 8), dir_start = Le(img_, 72, 8);
    const uint64_t frag_start = Le(img_, 80, 8), lookup = Le(img_, 88, 8);
    const uint64_t id_start = Le(img_, 48, 8), xattr = Le(img_, 56, 8);
    block_size_ = Le(img_, 12, 4);
    inodes_ = Le(img_, 4, 4);
    Stream inode_stream = Chain(inode_start, dir_start);
    // The directory table ends where the first table after it begins:
    // the first metadata block of any index array behind it.
    uint64_t dir_end = img_.size();
    for (uint64_t t : {frag_start, lookup, id_start, xattr}) {
      if (t == kInvalid || t <= dir_start) continue;
      dir_end = std::min<uint64_t>(dir_end, t);
      if (Fits(t, 8)) {
        uint64_t first = Le(img_, t, 8);
        if (first > dir_start) dir_end = std::min<uint64_t>(dir_end, first);
      }
    }
    Stream dir_stream = Chain(dir_start, dir_end);
    Inodes(inode_stream);
    Directories(dir_stream);
    Table(frag_start, Le(img_, 16, 4), 16, "fragment", {8, 4, 4});
    Table(id_start, Le(img_, 26, 2), 4, "id", {4});
    Table(lookup, inodes_, 8, "export", {8});
    if (Fits(xattr, 16)) {
      Add(FieldKind::kTablePointer, "xattr.table_start", xattr, 8);
      Add(FieldKind::kTablePointer, "xattr.ids", xattr + 8, 4);
      Table(xattr + 16 - 0, Le(img_, xattr + 8, 4), 16, "xattr_id", {8, 4, 4},
            /*index_at=*/xattr + 16);
      // The xattrs themselves: metadata blocks from the table's start up
      // to the id table's first block, each id's list where its entry
      // points.
      const uint64_t kv_start = Le(img_, xattr, 8);
      const uint64_t kv_end =
          Fits(xattr + 16, 8) ? Le(img_, xattr + 16, 8) : img_.size();
      if (kv_start < kv_end && Fits(xattr + 16, 8))
        Xattrs(kv_start, Chain(kv_start, kv_end), Le(img_, xattr + 16, 8),
               Le(img_, xattr + 8, 4));
    }
    std::sort(out_.values.begin(), out_.values.end());
    out_.values.erase(std::unique(out_.values.begin(), out_.values.end()),
                      out_.values.end());
    return std::move(out_);
  }

 private:
  // [at, at + width) lies in the image (no overflow for any `at`).
  bool Fits(uint64_t at, uint64_t width) const {
    return width <= img_.size() && at <= img_.size() - width;
  }
  void Add(FieldKind kind, const std::string& name, size_t at, size_t width) {
    if (!Fits(at, width) || out_.fields.size() >= kMaxFields) return;
    ImageField f{kind, name, {}};
    for (size_t i = 0; i < width; i++) f.at.push_back(at + i);
    out_.fields.push_back(std::move(f));
  }
  void AddStream(FieldKind kind, const std::string& name, const Stream& s,
                 size_t pos, size_t width) {
    if (!s.Has(pos, width) || out_.fields.size() >= kMaxFields) return;
    ImageField f{kind, name, {}};
    for (size_t i = 0; i < width; i++) f.at.push_back(s.at[pos + i]);
    out_.fields.push_back(std::move(f));
  }
  uint64_t S(const Stream& s, size_t pos, size_t width) const {
    uint64_t v = 0;
    for (size_t i = 0; i < width; i++)
      v |= static_cast<uint64_t>(img_[s.at[pos + i]]) << (8 * i);
    return v;
  }

  void Superblock() {
    static const struct {
      const char* name;
      size_t at, width;
    } kFields[] = {
        {"sb.magic", 0, 4},
        {"sb.inodes", 4, 4},
        {"sb.mkfs_time", 8, 4},
        {"sb.block_size", 12, 4},
        {"sb.fragments", 16, 4},
        {"sb.compression", 20, 2},
        {"sb.block_log", 22, 2},
        {"sb.flags", 24, 2},
        {"sb.no_ids", 26, 2},
        {"sb.s_major", 28, 2},
        {"sb.s_minor", 30, 2},
        {"sb.root_inode", 32, 8},
        {"sb.bytes_used", 40, 8},
        {"sb.id_table_start", 48, 8},
        {"sb.xattr_id_table_start", 56, 8},
        {"sb.inode_table_start", 64, 8},
        {"sb.directory_table_start", 72, 8},
        {"sb.fragment_table_start", 80, 8},
        {"sb.lookup_table_start", 88, 8},
    };
    for (const auto& f : kFields) {
      Add(FieldKind::kSuperblock, f.name, f.at, f.width);
      out_.values.push_back(Le(img_, f.at, f.width));
    }
    out_.values.push_back(img_.size());
    for (uint64_t v : {4095, 4096, 4097, 8191, 8192, 8193, 65535, 65536})
      out_.values.push_back(v);
  }

  // A chain of metadata blocks from `start` up to `end`: every length word
  // is a field; the bytes of uncompressed blocks make the stream.
  Stream Chain(uint64_t start, uint64_t end) {
    Stream s;
    if (!Fits(start, 2)) return s;
    end = std::min<uint64_t>(end, img_.size());
    uint64_t pos = start;
    for (int blocks = 0; pos + 2 <= end && blocks < 64; blocks++) {
      const uint64_t word = Le(img_, pos, 2);
      const uint64_t len = word & 0x7fff;
      Add(FieldKind::kMetadataLength, "metadata.length", pos, 2);
      if (len == 0 || len > kMetadataSize || pos + 2 + len > end) break;
      if (word & 0x8000)
        for (uint64_t i = 0; i < len; i++) s.at.push_back(pos + 2 + i);
      else
        break;  // compressed: the stream's fields are out of reach after it
      pos += 2 + len;
    }
    return s;
  }

  // One inode's fields; returns its length in the stream, 0 to stop.
  size_t Inode(const Stream& s, size_t p) {
    if (!s.Has(p, 16)) return 0;
    const uint64_t type = S(s, p, 2);
    static const char* kHeader[] = {"inode.type", "inode.mode", "inode.uid",
                                    "inode.guid"};
    for (int i = 0; i < 4; i++)
      AddStream(FieldKind::kInode, kHeader[i], s, p + 2 * i, 2);
    AddStream(FieldKind::kInode, "inode.mtime", s, p + 8, 4);
    AddStream(FieldKind::kInode, "inode.number", s, p + 12, 4);
    const size_t b = p + 16;
    auto field = [&](const char* name, size_t off, size_t w) {
      AddStream(FieldKind::kInode, name, s, b + off, w);
    };
    auto blocks = [&](uint64_t size, uint64_t frag, size_t at) -> size_t {
      if (block_size_ == 0 || block_size_ > (1u << 20)) return 0;
      uint64_t n = frag == 0xffffffffULL
                       ? (size + block_size_ - 1) / block_size_
                       : size / block_size_;
      n = std::min<uint64_t>(n, 256);
      for (uint64_t i = 0; i < n; i++)
        AddStream(FieldKind::kBlockLength, "inode.block_length", s, at + 4 * i,
                  4);
      return static_cast<size_t>(n) * 4;
    };
    switch (type) {
      case 1:  // directory
        if (!s.Has(b, 16)) return 0;
        field("dir.start_block", 0, 4);
        field("dir.nlink", 4, 4);
        field("dir.file_size", 8, 2);
        field("dir.offset", 10, 2);
        field("dir.parent", 12, 4);
        return 32;
      case 2: {  // regular file
        if (!s.Has(b, 16)) return 0;
        field("file.start_block", 0, 4);
        field("file.fragment", 4, 4);
        field("file.offset", 8, 4);
        field("file.size", 12, 4);
        out_.values.push_back(S(s, b + 12, 4));
        return 32 + blocks(S(s, b + 12, 4), S(s, b + 4, 4), b + 16);
      }
      case 3:
      case 10: {  // symlink
        if (!s.Has(b, 8)) return 0;
        field("symlink.nlink", 0, 4);
        field("symlink.size", 4, 4);
        const uint64_t n = S(s, b + 4, 4);
        if (n > 4096) return 0;
        return 24 + static_cast<size_t>(n) + (type == 10 ? 4 : 0);
      }
      case 4:
      case 5:  // devices
        field("dev.nlink", 0, 4);
        field("dev.rdev", 4, 4);
        return 24;
      case 6:
      case 7:  // fifo, socket
        field("ipc.nlink", 0, 4);
        return 20;
      case 8: {  // extended directory
        if (!s.Has(b, 24)) return 0;
        field("ldir.nlink", 0, 4);
        field("ldir.file_size", 4, 4);
        field("ldir.start_block", 8, 4);
        field("ldir.parent", 12, 4);
        field("ldir.i_count", 16, 2);
        field("ldir.offset", 18, 2);
        field("ldir.xattr", 20, 4);
        size_t q = b + 24;
        const uint64_t count = std::min<uint64_t>(S(s, b + 16, 2), 64);
        for (uint64_t i = 0; i <= count && s.Has(q, 12) && count > 0; i++) {
          AddStream(FieldKind::kInode, "ldir.index.index", s, q, 4);
          AddStream(FieldKind::kInode, "ldir.index.start", s, q + 4, 4);
          AddStream(FieldKind::kInode, "ldir.index.size", s, q + 8, 4);
          q += 12 + static_cast<size_t>(S(s, q + 8, 4) & 0xff) + 1;
        }
        return q - p;
      }
      case 9: {  // extended regular file
        if (!s.Has(b, 40)) return 0;
        field("lreg.start_block", 0, 8);
        field("lreg.file_size", 8, 8);
        field("lreg.sparse", 16, 8);
        field("lreg.nlink", 24, 4);
        field("lreg.fragment", 28, 4);
        field("lreg.offset", 32, 4);
        field("lreg.xattr", 36, 4);
        return 56 + blocks(S(s, b + 8, 8), S(s, b + 28, 4), b + 40);
      }
      case 11:
      case 12:
        field("ldev.nlink", 0, 4);
        field("ldev.rdev", 4, 4);
        field("ldev.xattr", 8, 4);
        return 28;
      case 13:
      case 14:
        field("lipc.nlink", 0, 4);
        field("lipc.xattr", 4, 4);
        return 24;
      default:
        return 0;
    }
  }

  void Inodes(const Stream& s) {
    for (size_t p = 0, n = 0; p < s.at.size() && n < 1024; n++) {
      size_t len = Inode(s, p);
      if (len == 0) break;
      p += len;
    }
  }

  void Directories(const Stream& s) {
    size_t p = 0;
    for (int headers = 0; s.Has(p, 12) && headers < 512; headers++) {
      const uint64_t count = S(s, p, 4);
      AddStream(FieldKind::kDirectoryHeader, "dirhdr.count", s, p, 4);
      AddStream(FieldKind::kDirectoryHeader, "dirhdr.start", s, p + 4, 4);
      AddStream(FieldKind::kDirectoryHeader, "dirhdr.inode_number", s, p + 8,
                4);
      if (count >= 256) return;
      p += 12;
      for (uint64_t i = 0; i <= count; i++) {
        if (!s.Has(p, 8)) return;
        AddStream(FieldKind::kDirectoryEntry, "dirent.offset", s, p, 2);
        AddStream(FieldKind::kDirectoryEntry, "dirent.inode_offset", s, p + 2,
                  2);
        AddStream(FieldKind::kDirectoryEntry, "dirent.type", s, p + 4, 2);
        AddStream(FieldKind::kDirectoryEntry, "dirent.size", s, p + 6, 2);
        p += 8 + static_cast<size_t>(S(s, p + 6, 2)) + 1;
      }
    }
  }

  // The xattr table's entries (squashfs_fs.h squashfs_xattr_entry and
  // squashfs_xattr_val): a type (bit 8: the value is out of line, an
  // 8-byte reference to it), a name size, the name, a value size, the
  // value; `count` of them where each of the first block's xattr ids
  // (at `ids`) points: a block's offset from the table's start and an
  // offset in it.
  void Xattrs(uint64_t start, const Stream& kv, uint64_t ids, uint64_t n) {
    if (ids >= img_.size()) return;
    Stream id =
        Chain(ids, std::min<uint64_t>(ids + 2 + kMetadataSize, img_.size()));
    n = std::min<uint64_t>(n, 64);
    for (uint64_t e = 0; e < n && id.Has(16 * e, 16); e++) {
      const uint64_t ref = S(id, 16 * e, 8), count = S(id, 16 * e + 8, 4);
      size_t p = 0;
      if (KvPosition(start, kv, ref, &p))
        XattrList(start, kv, p, std::min<uint64_t>(count, 64));
    }
  }
  // The stream position of a reference: its block's first byte, then the
  // offset in it.
  bool KvPosition(uint64_t start, const Stream& kv, uint64_t ref, size_t* p) {
    const uint64_t block = start + (ref >> 16) + 2;
    auto it = std::find(kv.at.begin(), kv.at.end(), block);
    if (it == kv.at.end()) return false;
    *p = static_cast<size_t>(it - kv.at.begin()) + (ref & 0xffff);
    return true;
  }
  void XattrList(uint64_t start, const Stream& s, size_t p, uint64_t count) {
    for (uint64_t n = 0; s.Has(p, 4) && n < count; n++) {
      const uint64_t type = S(s, p, 2), name = S(s, p + 2, 2);
      AddStream(FieldKind::kXattrEntry, "xattr.type", s, p, 2);
      AddStream(FieldKind::kXattrEntry, "xattr.name_size", s, p + 2, 2);
      out_.values.push_back(name);
      p += 4 + static_cast<size_t>(name);
      if (!s.Has(p, 4)) return;
      const uint64_t vsize = S(s, p, 4);
      AddStream(FieldKind::kXattrEntry, "xattr.value_size", s, p, 4);
      out_.values.push_back(vsize);
      size_t ool = 0;
      if ((type & 0x100) && vsize == 8 && s.Has(p + 4, 8)) {
        AddStream(FieldKind::kXattrEntry, "xattr.value_ref", s, p + 4, 8);
        if (KvPosition(start, s, S(s, p + 4, 8), &ool) && s.Has(ool, 4)) {
          AddStream(FieldKind::kXattrEntry, "xattr.value_size", s, ool, 4);
          out_.values.push_back(S(s, ool, 4));
        }
      }
      if (vsize > kMetadataSize * 8) return;
      p += 4 + static_cast<size_t>(vsize);
    }
  }

  // An index array of `count` entries of `entry` bytes at `start` (or at
  // index_at): its pointers, the blocks they point to, and the entries
  // inside those stored uncompressed.
  void Table(uint64_t start, uint64_t count, size_t entry,
             const std::string& name, std::vector<size_t> parts,
             uint64_t index_at = kInvalid) {
    if (index_at == kInvalid) index_at = start;
    if (count == 0 || !Fits(index_at, 8)) return;
    out_.values.push_back(count);
    out_.values.push_back(count + 1);
    const uint64_t blocks = std::min<uint64_t>(
        (count * entry + kMetadataSize - 1) / kMetadataSize, 64);
    for (uint64_t i = 0; i < blocks; i++) {
      const uint64_t at = index_at + 8 * i;
      if (!Fits(at, 8)) return;
      Add(FieldKind::kTablePointer, name + ".index", at, 8);
      const uint64_t block = Le(img_, at, 8);
      if (block >= img_.size()) continue;
      Stream s = Chain(
          block, std::min<uint64_t>(block + 2 + kMetadataSize, img_.size()));
      for (size_t e = 0; s.Has(e + entry, 0) && e < 64 * entry; e += entry) {
        size_t off = 0;
        for (size_t w : parts) {
          AddStream(FieldKind::kTableEntry, name + ".entry", s, e + off, w);
          off += w;
        }
      }
    }
  }

  std::span<const uint8_t> img_;
  ImageFields out_;
  uint64_t block_size_ = 0, inodes_ = 0;
};

}  // namespace

uint64_t ImageField::Read(std::span<const uint8_t> image) const {
  uint64_t v = 0;
  for (size_t i = 0; i < at.size(); i++)
    v |= static_cast<uint64_t>(image[at[i]]) << (8 * i);
  return v;
}

void ImageField::Write(std::span<uint8_t> image, uint64_t value) const {
  for (size_t i = 0; i < at.size(); i++)
    image[at[i]] = static_cast<uint8_t>(value >> (8 * i));
}

ImageFields ParseImageFields(std::span<const uint8_t> image) {
  return Parser(image).Run();
}

}  // namespace squashlab
