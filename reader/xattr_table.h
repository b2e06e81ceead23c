// SPDX-License-Identifier: GPL-2.0-only
// This file implements the xattr tables: the id table that maps an inode's
// xattr index to a run of key/value pairs, and the key/value blocks, with
// out-of-line values.
#ifndef SQUASHLAB_READER_XATTR_TABLE_H_
#define SQUASHLAB_READER_XATTR_TABLE_H_

#include <memory>
#include <string>
#include <vector>

#include "reader/lookup_table.h"

namespace squashlab {

struct Xattr {
  std::string name;  // with its prefix: "user.", "trusted." or "security."
  std::string value;
};

inline constexpr uint32_t kMaxXattrNameSize = 255;     // XATTR_NAME_MAX
inline constexpr uint32_t kMaxXattrValueSize = 65536;  // XATTR_SIZE_MAX

// Thread-compatible.
class XattrTable {
 public:
  // `id_table_start` is the superblock's xattr_id_table_start; lower_bound is
  // the lowest offset the key/value blocks may use (the directory table end
  // is a safe choice); limit is where the tables must end.
  static StatusOr<std::unique_ptr<XattrTable>> Open(const ImageBytes* bytes,
                                                    Decompressor* decompressor,
                                                    uint64_t id_table_start,
                                                    uint64_t lower_bound);
  StatusOr<std::vector<Xattr>> Get(uint32_t xattr_index);
  uint32_t count() const { return static_cast<uint32_t>(ids_->count()); }
  uint64_t kv_start() const { return kv_start_; }

 private:
  XattrTable(uint64_t kv_start, std::unique_ptr<LookupTable> ids,
             std::unique_ptr<MetadataReader> kv)
      : kv_start_(kv_start), ids_(std::move(ids)), kv_(std::move(kv)) {}
  StatusOr<std::string> ReadValue(MetaPos* pos);
  uint64_t kv_start_;
  std::unique_ptr<LookupTable> ids_;
  std::unique_ptr<MetadataReader> kv_;
};

}  // namespace squashlab

#endif  // SQUASHLAB_READER_XATTR_TABLE_H_
