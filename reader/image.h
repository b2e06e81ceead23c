// SPDX-License-Identifier: GPL-2.0-only
// This file implements Image: the reader's public API over a SquashFS 4.0
// image — open from a file or bytes, stat, lookup by path, read directories,
// file ranges, symlinks and xattrs.
#ifndef SQUASHLAB_READER_IMAGE_H_
#define SQUASHLAB_READER_IMAGE_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "reader/data_reader.h"
#include "reader/decompressor.h"
#include "reader/directory.h"
#include "reader/file_layout.h"
#include "reader/image_bytes.h"
#include "reader/inode.h"
#include "reader/lookup_table.h"
#include "reader/metadata_reader.h"
#include "reader/superblock.h"
#include "reader/xattr_table.h"

namespace squashlab {

// Where each table lives, for `squashlab info` and for bounds checks.
struct TableLayout {
  uint64_t data_start = 0;  // first byte after the superblock (and options)
  uint64_t directory_limit = 0;  // end of the directory table's blocks
};

// Thread-compatible: metadata calls (everything but data()) must not run
// concurrently. data() is thread-safe and may be shared by worker threads.
class Image {
 public:
  static StatusOr<std::unique_ptr<Image>> Open(const std::string& path);
  static StatusOr<std::unique_ptr<Image>> OpenBytes(std::vector<uint8_t> bytes);
  static StatusOr<std::unique_ptr<Image>> OpenImageBytes(
      std::shared_ptr<const ImageBytes> bytes);

  const Superblock& superblock() const { return sb_; }
  const CompressorOptions& compressor_options() const { return options_; }
  const TableLayout& tables() const { return tables_; }
  const ImageBytes& bytes() const { return *bytes_; }

  StatusOr<Inode> Root();
  StatusOr<Inode> ReadInode(uint64_t ref);
  StatusOr<Inode> ReadInode(
      const DirEntry& e);  // also checks type and number agree
  // Resolves "/a/b", "a/b" or "" (the root) without following symlinks.
  StatusOr<Inode> Lookup(const std::string& path);
  StatusOr<std::vector<DirEntry>> ReadDir(const Inode& dir);
  StatusOr<uint32_t> Uid(const Inode& inode);
  StatusOr<uint32_t> Gid(const Inode& inode);
  // Empty when the inode has none or the image has no xattr table.
  StatusOr<std::vector<Xattr>> ListXattrs(const Inode& inode);
  // The inode reference the export table stores for inode number n (1-based).
  StatusOr<uint64_t> ExportLookup(uint32_t inode_number);

  StatusOr<FileLayout> Layout(const Inode& file);
  const DataReader& data() const { return *data_; }
  // Reads up to out.size() bytes of `file` from `offset`, single-threaded;
  // returns the count (short only at end of file).
  StatusOr<size_t> ReadFile(const Inode& file, uint64_t offset,
                            std::span<uint8_t> out);

 private:
  Image() = default;
  Status Init(std::shared_ptr<const ImageBytes> bytes);
  Status OpenTables();
  DirectoryTables dir_tables() {
    return {directory_table_.get(), inode_table_.get(), sb_.inode_count};
  }

  std::shared_ptr<const ImageBytes> bytes_;
  Superblock sb_;
  CompressorOptions options_;
  TableLayout tables_;
  std::unique_ptr<Decompressor> meta_decompressor_;
  std::unique_ptr<MetadataReader> inode_table_;
  std::unique_ptr<MetadataReader> directory_table_;
  std::unique_ptr<LookupTable> ids_;
  std::unique_ptr<LookupTable> fragments_;
  std::unique_ptr<LookupTable> exports_;
  std::unique_ptr<XattrTable> xattrs_;
  std::unique_ptr<DataReader> data_;
  std::unique_ptr<DataReader::Context> own_context_;
  // ReadFile's last layout: repeated range reads of one file (the model's
  // oracle reads page by page) must not rebuild the block list each time.
  uint64_t cached_layout_ref_ = ~uint64_t{0};
  std::unique_ptr<FileLayout> cached_layout_;
  // ... nor decode a block again for each small read inside it.
  uint64_t cached_chunk_ = ~uint64_t{0};
  std::vector<uint8_t> chunk_buf_;
};

}  // namespace squashlab

#endif  // SQUASHLAB_READER_IMAGE_H_
