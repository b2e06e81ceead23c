// SPDX-License-Identifier: GPL-2.0-only
// This file implements Image: opening (superblock, compressor options, every
// table, each bounded by its neighbours) and the inode-level API.
#include "reader/image.h"

#include <algorithm>
#include <cstring>

namespace squashlab {

StatusOr<std::unique_ptr<Image>> Image::Open(const std::string& path) {
  SQL_ASSIGN_OR_RETURN(auto bytes, ImageBytes::MapFile(path));
  return OpenImageBytes(std::move(bytes));
}

StatusOr<std::unique_ptr<Image>> Image::OpenBytes(std::vector<uint8_t> bytes) {
  return OpenImageBytes(ImageBytes::FromBuffer(std::move(bytes)));
}

StatusOr<std::unique_ptr<Image>> Image::OpenImageBytes(
    std::shared_ptr<const ImageBytes> bytes) {
  std::unique_ptr<Image> img(new Image());
  SQL_RETURN_IF_ERROR(img->Init(std::move(bytes)));
  return img;
}

Status Image::Init(std::shared_ptr<const ImageBytes> bytes) {
  bytes_ = std::move(bytes);
  ByteSpan head;
  if (bytes_->size() >= kSuperblockSize) {
    SQL_ASSIGN_OR_RETURN(head, bytes_->Slice(0, kSuperblockSize));
  }
  SQL_ASSIGN_OR_RETURN(sb_, DecodeSuperblock(head, bytes_->size()));
  SQL_ASSIGN_OR_RETURN(meta_decompressor_, NewDecompressor(sb_.compressor));
  tables_.data_start = kSuperblockSize;
  if (sb_.has(kCompressorOptions)) {
    MetadataReader opts(bytes_.get(), meta_decompressor_.get(), kSuperblockSize,
                        sb_.inode_table_start);
    auto block = opts.ReadBlock(kSuperblockSize);
    if (!block.ok()) return block.status().WithContext("compressor options");
    SQL_ASSIGN_OR_RETURN(
        options_, ParseCompressorOptions(sb_.compressor, (*block)->data));
    tables_.data_start = (*block)->next;
  }
  SQL_RETURN_IF_ERROR(OpenTables());
  data_ = std::make_unique<DataReader>(bytes_, sb_.compressor, sb_.block_size);
  SQL_ASSIGN_OR_RETURN(own_context_, data_->NewContext());
  return Status::Ok();
}

Status Image::OpenTables() {
  Decompressor* d = meta_decompressor_.get();
  const uint64_t lower = sb_.directory_table_start;
  uint64_t dir_limit = sb_.id_table_start;
  auto opened = LookupTable::Open(bytes_.get(), d, "id", sb_.id_table_start,
                                  sb_.id_count, 4, lower);
  if (!opened.ok()) return opened.status();
  ids_ = std::move(opened).value();
  dir_limit = std::min(dir_limit, ids_->first_block());
  if (sb_.fragment_table_start != kInvalidTable) {
    SQL_ASSIGN_OR_RETURN(
        fragments_,
        LookupTable::Open(bytes_.get(), d, "fragment", sb_.fragment_table_start,
                          sb_.fragment_count, 16, lower));
    dir_limit = std::min(dir_limit, fragments_->first_block());
  }
  if (sb_.export_table_start != kInvalidTable) {
    SQL_ASSIGN_OR_RETURN(
        exports_,
        LookupTable::Open(bytes_.get(), d, "export", sb_.export_table_start,
                          sb_.inode_count, 8, lower));
    dir_limit = std::min(dir_limit, exports_->first_block());
  }
  if (sb_.xattr_id_table_start != kInvalidTable) {
    SQL_ASSIGN_OR_RETURN(
        xattrs_,
        XattrTable::Open(bytes_.get(), d, sb_.xattr_id_table_start, lower));
    dir_limit = std::min(dir_limit, xattrs_->kv_start());  // its first block
  }
  tables_.directory_limit = dir_limit;
  inode_table_ = std::make_unique<MetadataReader>(
      bytes_.get(), d, sb_.inode_table_start, sb_.directory_table_start);
  directory_table_ = std::make_unique<MetadataReader>(
      bytes_.get(), d, sb_.directory_table_start, dir_limit);
  return Status::Ok();
}

StatusOr<Inode> Image::ReadInode(uint64_t ref) {
  return DecodeInode(inode_table_.get(), ref, sb_.block_size);
}

StatusOr<Inode> Image::ReadInode(const DirEntry& e) {
  auto inode = ReadInode(e.inode_ref);
  if (!inode.ok()) return inode.status().WithContext(e.name);
  if (inode->type != e.type || inode->inode_number != e.inode_number)
    return Status::Corruption(e.name + ": directory entry says " +
                              InodeTypeName(e.type) + " #" +
                              std::to_string(e.inode_number) + ", inode says " +
                              InodeTypeName(inode->type) + " #" +
                              std::to_string(inode->inode_number));
  return inode;
}

StatusOr<Inode> Image::Root() {
  auto root = ReadInode(sb_.root_inode_ref);
  if (!root.ok()) return root.status().WithContext("root inode");
  if (root->type != InodeType::kDirectory)
    return Status::Corruption("root inode is not a directory");
  return root;
}

StatusOr<Inode> Image::Lookup(const std::string& path) {
  SQL_ASSIGN_OR_RETURN(Inode cur, Root());
  size_t i = 0;
  while (i < path.size()) {
    size_t j = path.find('/', i);
    if (j == std::string::npos) j = path.size();
    std::string part = path.substr(i, j - i);
    i = j + 1;
    if (part.empty() || part == ".") continue;
    if (part == "..")
      return Status::InvalidArgument("'..' in a path inside the image");
    if (cur.type != InodeType::kDirectory)
      return Status::NotFound(path + " (a component is not a directory)");
    auto entry = LookupName(dir_tables(), cur, part);
    if (!entry.ok()) {
      if (entry.status().code() == StatusCode::kNotFound)
        return Status::NotFound(path);
      return entry.status();
    }
    SQL_ASSIGN_OR_RETURN(cur, ReadInode(*entry));
  }
  return cur;
}

StatusOr<std::vector<DirEntry>> Image::ReadDir(const Inode& dir) {
  return ReadDirectory(dir_tables(), dir);
}

StatusOr<uint32_t> Image::Uid(const Inode& inode) {
  uint8_t e[4];
  SQL_RETURN_IF_ERROR(ids_->Entry(inode.uid_index, e));
  return DecodeLe32(e);
}

StatusOr<uint32_t> Image::Gid(const Inode& inode) {
  uint8_t e[4];
  SQL_RETURN_IF_ERROR(ids_->Entry(inode.gid_index, e));
  return DecodeLe32(e);
}

StatusOr<std::vector<Xattr>> Image::ListXattrs(const Inode& inode) {
  if (inode.xattr_index == kNoXattr) return std::vector<Xattr>{};
  if (!xattrs_)
    return Status::Corruption(
        "inode has xattrs but the image has no xattr table");
  return xattrs_->Get(inode.xattr_index);
}

StatusOr<uint64_t> Image::ExportLookup(uint32_t inode_number) {
  if (!exports_) return Status::Unsupported("image has no export table");
  if (inode_number == 0) return Status::InvalidArgument("inode number 0");
  uint8_t e[8];
  SQL_RETURN_IF_ERROR(exports_->Entry(inode_number - 1, e));
  return DecodeLe64(e);
}

StatusOr<FileLayout> Image::Layout(const Inode& file) {
  return BuildFileLayout(inode_table_.get(), fragments_.get(), file,
                         sb_.block_size, tables_.data_start,
                         sb_.inode_table_start);
}

StatusOr<size_t> Image::ReadFile(const Inode& file, uint64_t offset,
                                 std::span<uint8_t> out) {
  if (!cached_layout_ || cached_layout_ref_ != file.ref) {
    SQL_ASSIGN_OR_RETURN(FileLayout fresh, Layout(file));
    cached_layout_ = std::make_unique<FileLayout>(std::move(fresh));
    cached_layout_ref_ = file.ref;
    cached_chunk_ = ~uint64_t{0};
  }
  const FileLayout& layout = *cached_layout_;
  if (offset >= layout.file_size) return size_t{0};
  const uint64_t end =
      std::min<uint64_t>(layout.file_size, offset + out.size());
  chunk_buf_.resize(sb_.block_size);
  size_t done = 0;
  for (uint64_t pos = offset; pos < end;) {
    const uint64_t i = pos / sb_.block_size;
    const uint64_t in_chunk = pos - layout.chunk_offset(i);
    if (cached_chunk_ != i) {
      cached_chunk_ = ~uint64_t{0};  // stays invalid if the read fails
      SQL_RETURN_IF_ERROR(
          data_->ReadChunk(layout, i, own_context_.get(), chunk_buf_.data()));
      cached_chunk_ = i;
    }
    const size_t take = static_cast<size_t>(
        std::min<uint64_t>(layout.chunk_length(i) - in_chunk, end - pos));
    std::memcpy(out.data() + done, chunk_buf_.data() + in_chunk, take);
    done += take;
    pos += take;
  }
  return done;
}

}  // namespace squashlab
