// SPDX-License-Identifier: GPL-2.0-only
// This file implements DecodeSuperblock: decode into a temporary, check every
// field against the format and the image size, then return it.
#include "reader/superblock.h"

namespace squashlab {

const char* CompressorName(CompressorId id) {
  switch (id) {
    case CompressorId::kGzip:
      return "gzip";
    case CompressorId::kLzma:
      return "lzma";
    case CompressorId::kLzo:
      return "lzo";
    case CompressorId::kXz:
      return "xz";
    case CompressorId::kLz4:
      return "lz4";
    case CompressorId::kZstd:
      return "zstd";
  }
  return "unknown";
}

std::string FlagNames(uint16_t flags) {
  static constexpr struct {
    uint16_t bit;
    const char* name;
  } kNames[] = {
      {kUncompressedInodes, "uncompressed-inodes"},
      {kUncompressedData, "uncompressed-data"},
      {kCheck, "check"},
      {kUncompressedFragments, "uncompressed-fragments"},
      {kNoFragments, "no-fragments"},
      {kAlwaysFragments, "always-fragments"},
      {kDuplicates, "duplicates"},
      {kExportable, "exportable"},
      {kUncompressedXattrs, "uncompressed-xattrs"},
      {kNoXattrs, "no-xattrs"},
      {kCompressorOptions, "compressor-options"},
      {kUncompressedIds, "uncompressed-ids"},
  };
  std::string out;
  for (const auto& n : kNames) {
    if (flags & n.bit) out += (out.empty() ? "" : ",") + std::string(n.name);
  }
  return out.empty() ? "none" : out;
}

namespace {

Status CheckTables(const Superblock& sb) {
  // Every table must start inside the used bytes; the inode table precedes
  // the directory table, which precedes (or is empty and meets) the others.
  const uint64_t end = sb.bytes_used;
  if (sb.inode_table_start < kSuperblockSize || sb.inode_table_start >= end)
    return Status::Corruption("inode table start out of range");
  if (sb.directory_table_start <= sb.inode_table_start ||
      sb.directory_table_start >= end)
    return Status::Corruption("directory table start out of range");
  // A table may start where the directory table starts: an image whose root
  // is empty has an empty directory table.
  if (sb.id_table_start < sb.directory_table_start || sb.id_table_start >= end)
    return Status::Corruption("id table start out of range");
  struct {
    uint64_t start;
    const char* name;
  } optional[] = {
      {sb.fragment_table_start, "fragment"},
      {sb.export_table_start, "export"},
      {sb.xattr_id_table_start, "xattr id"},
  };
  for (const auto& t : optional) {
    if (t.start == kInvalidTable) continue;
    if (t.start < sb.directory_table_start || t.start >= end)
      return Status::Corruption(std::string(t.name) +
                                " table start out of range");
  }
  return Status::Ok();
}

}  // namespace

StatusOr<Superblock> DecodeSuperblock(ByteSpan bytes, uint64_t image_size) {
  if (bytes.size() < kSuperblockSize)
    return Status::Corruption("image is shorter than a superblock");
  LeCursor c(bytes.first(kSuperblockSize));
  Superblock sb;
  uint32_t magic = c.U32();
  if (magic != kSquashfsMagic)
    return Status::Corruption("bad magic (not a SquashFS image)");
  sb.inode_count = c.U32();
  sb.mod_time = c.U32();
  sb.block_size = c.U32();
  sb.fragment_count = c.U32();
  uint16_t comp = c.U16();
  sb.block_log = c.U16();
  sb.flags = c.U16();
  sb.id_count = c.U16();
  sb.version_major = c.U16();
  sb.version_minor = c.U16();
  sb.root_inode_ref = c.U64();
  sb.bytes_used = c.U64();
  sb.id_table_start = c.U64();
  sb.xattr_id_table_start = c.U64();
  sb.inode_table_start = c.U64();
  sb.directory_table_start = c.U64();
  sb.fragment_table_start = c.U64();
  sb.export_table_start = c.U64();

  if (sb.version_major != 4 || sb.version_minor != 0)
    return Status::Unsupported(
        "SquashFS version " + std::to_string(sb.version_major) + "." +
        std::to_string(sb.version_minor) + " (only 4.0 is supported)");
  if (comp < 1 || comp > 6)
    return Status::Unsupported("unknown compressor id " + std::to_string(comp));
  sb.compressor = static_cast<CompressorId>(comp);
  if (sb.block_log < 12 || sb.block_log > 20 ||
      sb.block_size != (1u << sb.block_log))
    return Status::Corruption("block size " + std::to_string(sb.block_size) +
                              " does not match block_log " +
                              std::to_string(sb.block_log) +
                              " or is outside 4K..1M");
  if (sb.bytes_used > image_size)
    return Status::Corruption("bytes_used " + std::to_string(sb.bytes_used) +
                              " exceeds the image size " +
                              std::to_string(image_size) +
                              " (truncated image?)");
  if (sb.inode_count == 0) return Status::Corruption("inode count is zero");
  if (sb.id_count == 0) return Status::Corruption("id count is zero");
  if (sb.fragment_count != 0 && sb.fragment_table_start == kInvalidTable)
    return Status::Corruption("fragments counted but no fragment table");
  SQL_RETURN_IF_ERROR(CheckTables(sb));
  return sb;
}

}  // namespace squashlab
