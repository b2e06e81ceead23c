// SPDX-License-Identifier: GPL-2.0-only
// This file implements XattrTable.
#include "reader/xattr_table.h"

namespace squashlab {
namespace {
constexpr uint16_t kXattrOutOfLine = 0x100;
constexpr const char* kPrefixes[] = {"user.", "trusted.", "security."};
}  // namespace

StatusOr<std::unique_ptr<XattrTable>> XattrTable::Open(
    const ImageBytes* bytes, Decompressor* decompressor,
    uint64_t id_table_start, uint64_t lower_bound) {
  SQL_ASSIGN_OR_RETURN(ByteSpan head, bytes->Slice(id_table_start, 16));
  const uint64_t kv_start = DecodeLe64(head.data());
  const uint32_t count = DecodeLe32(head.data() + 8);
  if (kv_start < lower_bound || kv_start >= id_table_start)
    return Status::Corruption("xattr key/value table start out of range");
  SQL_ASSIGN_OR_RETURN(
      auto ids, LookupTable::Open(bytes, decompressor, "xattr id",
                                  id_table_start + 16, count, 16, kv_start));
  const uint64_t kv_limit = count > 0 ? ids->first_block() : id_table_start;
  auto kv =
      std::make_unique<MetadataReader>(bytes, decompressor, kv_start, kv_limit);
  return std::unique_ptr<XattrTable>(
      new XattrTable(kv_start, std::move(ids), std::move(kv)));
}

StatusOr<std::string> XattrTable::ReadValue(MetaPos* pos) {
  uint8_t sz[4];
  SQL_RETURN_IF_ERROR(kv_->Read(pos, 4, sz));
  const uint32_t size = DecodeLe32(sz);
  if (size > kMaxXattrValueSize)
    return Status::Corruption("xattr value size " + std::to_string(size) +
                              " out of range");
  std::string v(size, '\0');
  SQL_RETURN_IF_ERROR(
      kv_->Read(pos, size, reinterpret_cast<uint8_t*>(v.data())));
  return v;
}

StatusOr<std::vector<Xattr>> XattrTable::Get(uint32_t xattr_index) {
  uint8_t e[16];
  SQL_RETURN_IF_ERROR(ids_->Entry(xattr_index, e));
  const uint64_t ref = DecodeLe64(e);
  const uint32_t count = DecodeLe32(e + 8);
  const uint32_t size = DecodeLe32(e + 12);
  // Each pair takes at least 4 (key) + 1 (name) + 4 (value) bytes.
  if (count == 0 || count > size / 9 + 1)
    return Status::Corruption("xattr entry " + std::to_string(xattr_index) +
                              " counts " + std::to_string(count) +
                              " pairs in " + std::to_string(size) + " bytes");
  const uint64_t block = ref >> 16;
  if (block >= kv_->limit() - kv_start_ || (ref & 0xffff) >= kMetadataBlockSize)
    return Status::Corruption("xattr reference out of range");
  MetaPos pos{kv_start_ + block, static_cast<uint32_t>(ref & 0xffff)};
  std::vector<Xattr> out;
  for (uint32_t i = 0; i < count; ++i) {
    uint8_t key[4];
    SQL_RETURN_IF_ERROR(kv_->Read(&pos, 4, key));
    const uint16_t type = DecodeLe16(key);
    const uint16_t name_size = DecodeLe16(key + 2);
    const uint16_t prefix = type & 0xff;
    if (prefix > 2 || (type & ~(kXattrOutOfLine | 0xff)) != 0)
      return Status::Corruption("xattr type " + std::to_string(type) +
                                " is unknown");
    if (name_size == 0 || name_size > kMaxXattrNameSize)
      return Status::Corruption("xattr name size " + std::to_string(name_size));
    Xattr x;
    std::string name(name_size, '\0');
    SQL_RETURN_IF_ERROR(
        kv_->Read(&pos, name_size, reinterpret_cast<uint8_t*>(name.data())));
    x.name = kPrefixes[prefix] + name;
    SQL_ASSIGN_OR_RETURN(std::string value, ReadValue(&pos));
    if (type & kXattrOutOfLine) {
      if (value.size() != 8)
        return Status::Corruption("out-of-line xattr reference size");
      const uint64_t vref =
          DecodeLe64(reinterpret_cast<const uint8_t*>(value.data()));
      if ((vref >> 16) >= kv_->limit() - kv_start_ ||
          (vref & 0xffff) >= kMetadataBlockSize)
        return Status::Corruption("out-of-line xattr reference out of range");
      MetaPos vpos{kv_start_ + (vref >> 16),
                   static_cast<uint32_t>(vref & 0xffff)};
      SQL_ASSIGN_OR_RETURN(value, ReadValue(&vpos));
    }
    x.value = std::move(value);
    out.push_back(std::move(x));
  }
  return out;
}

}  // namespace squashlab
