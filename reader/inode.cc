// SPDX-License-Identifier: GPL-2.0-only
// This file implements DecodeInode: the common header, then the body of each
// inode type, decoded into a temporary and validated before it is returned.
#include "reader/inode.h"

#include <sys/stat.h>

namespace squashlab {

const char* InodeTypeName(InodeType t) {
  switch (t) {
    case InodeType::kDirectory:
      return "directory";
    case InodeType::kFile:
      return "file";
    case InodeType::kSymlink:
      return "symlink";
    case InodeType::kBlockDevice:
      return "block device";
    case InodeType::kCharDevice:
      return "character device";
    case InodeType::kFifo:
      return "fifo";
    case InodeType::kSocket:
      return "socket";
  }
  return "unknown";
}

mode_t Inode::mode() const {
  static constexpr mode_t kFmt[] = {0,       S_IFDIR, S_IFREG, S_IFLNK,
                                    S_IFBLK, S_IFCHR, S_IFIFO, S_IFSOCK};
  return kFmt[static_cast<int>(type)] | (permissions & 07777);
}

uint64_t Inode::size() const {
  switch (type) {
    case InodeType::kDirectory:
      return dir_file_size;
    case InodeType::kFile:
      return file_size;
    case InodeType::kSymlink:
      return symlink_target.size();
    default:
      return 0;
  }
}

namespace {

// Reads `n` bytes of the inode body at *pos into a cursor-readable buffer.
class BodyReader {
 public:
  BodyReader(MetadataReader* t, MetaPos pos) : table_(t), pos_(pos) {}
  Status Read(size_t n) {
    buf_.resize(n);
    return table_->Read(&pos_, n, buf_.data());
  }
  LeCursor cursor() const { return LeCursor(buf_); }
  MetaPos pos() const { return pos_; }
  MetaPos* mutable_pos() { return &pos_; }
  MetadataReader* table() { return table_; }

 private:
  MetadataReader* table_;
  MetaPos pos_;
  std::vector<uint8_t> buf_;
};

Status DecodeDirectory(BodyReader* r, bool ext, Inode* in) {
  SQL_RETURN_IF_ERROR(r->Read(ext ? 24 : 16));
  LeCursor c = r->cursor();
  if (ext) {
    in->nlink = c.U32();
    in->dir_file_size = c.U32();
    in->dir_start_block = c.U32();
    in->parent_inode = c.U32();
    in->dir_index_count = c.U16();
    in->dir_offset = c.U16();
    in->xattr_index = c.U32();
    in->dir_index_pos = r->pos();
  } else {
    in->dir_start_block = c.U32();
    in->nlink = c.U32();
    in->dir_file_size = c.U16();
    in->dir_offset = c.U16();
    in->parent_inode = c.U32();
  }
  if (in->dir_file_size < 3)
    return Status::Corruption("directory size below 3");
  if (in->dir_offset >= kMetadataBlockSize)
    return Status::Corruption("directory offset out of range");
  return Status::Ok();
}

Status DecodeFile(BodyReader* r, bool ext, uint32_t block_size, Inode* in) {
  SQL_RETURN_IF_ERROR(r->Read(ext ? 40 : 16));
  LeCursor c = r->cursor();
  if (ext) {
    in->blocks_start = c.U64();
    in->file_size = c.U64();
    in->sparse_bytes = c.U64();
    in->nlink = c.U32();
    in->fragment_index = c.U32();
    in->fragment_offset = c.U32();
    in->xattr_index = c.U32();
  } else {
    in->blocks_start = c.U32();
    in->fragment_index = c.U32();
    in->fragment_offset = c.U32();
    in->file_size = c.U32();
  }
  in->block_list_pos = r->pos();
  // A file is stored as full blocks plus, optionally, a tail in a fragment.
  in->block_count = in->file_size / block_size;
  if (!in->has_fragment() && in->file_size % block_size) ++in->block_count;
  if (in->has_fragment() && in->fragment_offset >= block_size)
    return Status::Corruption("fragment offset out of range");
  if (in->has_fragment() && in->file_size % block_size == 0)
    return Status::Corruption("file has a fragment but no tail");
  return Status::Ok();
}

Status DecodeSymlink(BodyReader* r, bool ext, Inode* in) {
  SQL_RETURN_IF_ERROR(r->Read(8));
  LeCursor c = r->cursor();
  in->nlink = c.U32();
  uint32_t size = c.U32();
  if (size == 0 || size > kMaxSymlinkSize)
    return Status::Corruption("symlink target size " + std::to_string(size) +
                              " out of range");
  SQL_ASSIGN_OR_RETURN(auto target,
                       r->table()->ReadVector(r->mutable_pos(), size));
  in->symlink_target.assign(target.begin(), target.end());
  if (in->symlink_target.find('\0') != std::string::npos)
    return Status::Corruption("symlink target contains a NUL byte");
  if (ext) {
    SQL_RETURN_IF_ERROR(r->Read(4));
    in->xattr_index = r->cursor().U32();
  }
  return Status::Ok();
}

Status DecodeDevice(BodyReader* r, bool ext, Inode* in) {
  SQL_RETURN_IF_ERROR(r->Read(ext ? 12 : 8));
  LeCursor c = r->cursor();
  in->nlink = c.U32();
  in->rdev = c.U32();
  if (ext) in->xattr_index = c.U32();
  return Status::Ok();
}

Status DecodeIpc(BodyReader* r, bool ext, Inode* in) {
  SQL_RETURN_IF_ERROR(r->Read(ext ? 8 : 4));
  LeCursor c = r->cursor();
  in->nlink = c.U32();
  if (ext) in->xattr_index = c.U32();
  return Status::Ok();
}

}  // namespace

StatusOr<Inode> DecodeInode(MetadataReader* table, uint64_t ref,
                            uint32_t block_size) {
  const uint64_t block = ref >> 16;
  const uint32_t offset = ref & 0xffff;
  if (offset >= kMetadataBlockSize || block > table->limit() - table->start())
    return Status::Corruption("inode reference " + std::to_string(ref) +
                              " out of range");
  BodyReader r(table, MetaPos{table->start() + block, offset});
  SQL_RETURN_IF_ERROR(r.Read(16));
  LeCursor c = r.cursor();
  Inode in;
  in.ref = ref;
  uint16_t raw_type = c.U16();
  in.permissions = c.U16() & 07777;
  in.uid_index = c.U16();
  in.gid_index = c.U16();
  in.mtime = c.U32();
  in.inode_number = c.U32();
  if (raw_type < 1 || raw_type > 14)
    return Status::Corruption("inode type " + std::to_string(raw_type) +
                              " is unknown");
  in.extended = raw_type > 7;
  in.type = static_cast<InodeType>(in.extended ? raw_type - 7 : raw_type);
  if (in.inode_number == 0) return Status::Corruption("inode number 0");
  Status s;
  switch (in.type) {
    case InodeType::kDirectory:
      s = DecodeDirectory(&r, in.extended, &in);
      break;
    case InodeType::kFile:
      s = DecodeFile(&r, in.extended, block_size, &in);
      break;
    case InodeType::kSymlink:
      s = DecodeSymlink(&r, in.extended, &in);
      break;
    case InodeType::kBlockDevice:
    case InodeType::kCharDevice:
      s = DecodeDevice(&r, in.extended, &in);
      break;
    case InodeType::kFifo:
    case InodeType::kSocket:
      s = DecodeIpc(&r, in.extended, &in);
      break;
  }
  if (!s.ok()) return s.WithContext("inode " + std::to_string(in.inode_number));
  return in;
}

}  // namespace squashlab
