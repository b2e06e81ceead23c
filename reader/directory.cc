// SPDX-License-Identifier: GPL-2.0-only
// This file implements directory listings. A listing is a run of headers
// (count, inode block, base inode number), each followed by up to 256 entries
// (offset, inode number delta, type, name); its stored size is 3 more than
// its length, for "." and "..".
#include "reader/directory.h"

#include <set>

namespace squashlab {
namespace {

constexpr uint32_t kMaxEntriesPerHeader = 256;
constexpr uint32_t kMaxNameSize = 256;

// Walks the listing from `pos` with `remaining` bytes left, calling
// visit(entry) for each entry until it returns false.
template <typename Visit>
Status WalkListing(const DirectoryTables& t, MetaPos pos, uint64_t remaining,
                   Visit visit) {
  uint8_t buf[12];
  while (remaining > 0) {
    if (remaining < 12)
      return Status::Corruption("directory header overruns the listing");
    SQL_RETURN_IF_ERROR(t.directories->Read(&pos, 12, buf));
    remaining -= 12;
    const uint32_t count = DecodeLe32(buf) + 1;
    const uint32_t start_block = DecodeLe32(buf + 4);
    const uint32_t base = DecodeLe32(buf + 8);
    if (count > kMaxEntriesPerHeader)
      return Status::Corruption("directory header counts " +
                                std::to_string(count) + " entries");
    for (uint32_t i = 0; i < count; ++i) {
      if (remaining < 8)
        return Status::Corruption("directory entry overruns the listing");
      SQL_RETURN_IF_ERROR(t.directories->Read(&pos, 8, buf));
      remaining -= 8;
      const uint16_t offset = DecodeLe16(buf);
      const int16_t delta = static_cast<int16_t>(DecodeLe16(buf + 2));
      const uint16_t type = DecodeLe16(buf + 4);
      const uint32_t name_size = DecodeLe16(buf + 6) + 1u;
      if (name_size > kMaxNameSize || name_size > remaining)
        return Status::Corruption("directory entry name size " +
                                  std::to_string(name_size));
      DirEntry e;
      e.name.resize(name_size);
      SQL_RETURN_IF_ERROR(t.directories->Read(
          &pos, name_size, reinterpret_cast<uint8_t*>(e.name.data())));
      remaining -= name_size;
      if (type < 1 || type > 7)
        return Status::Corruption("directory entry '" + e.name + "' has type " +
                                  std::to_string(type));
      const int64_t number = static_cast<int64_t>(base) + delta;
      if (number < 1 || number > t.inode_count)
        return Status::Corruption("directory entry '" + e.name +
                                  "' has inode number " +
                                  std::to_string(number));
      if (offset >= kMetadataBlockSize)
        return Status::Corruption("directory entry '" + e.name +
                                  "' has inode offset " +
                                  std::to_string(offset));
      if (!IsSafeName(e.name))
        return Status::Corruption("unsafe name in directory: '" + e.name + "'");
      e.type = static_cast<InodeType>(type);
      e.inode_ref = MakeInodeRef(start_block, offset);
      e.inode_number = static_cast<uint32_t>(number);
      if (!visit(std::move(e))) return Status::Ok();
    }
  }
  return Status::Ok();
}

MetaPos ListingStart(const DirectoryTables& t, const Inode& dir) {
  return MetaPos{t.directories->start() + dir.dir_start_block, dir.dir_offset};
}

}  // namespace

bool IsSafeName(const std::string& name) {
  return !name.empty() && name != "." && name != ".." &&
         name.find('/') == std::string::npos &&
         name.find('\0') == std::string::npos;
}

StatusOr<std::vector<DirEntry>> ReadDirectory(const DirectoryTables& t,
                                              const Inode& dir) {
  if (dir.type != InodeType::kDirectory)
    return Status::InvalidArgument("not a directory");
  std::vector<DirEntry> out;
  std::set<std::string> seen;
  Status dup;
  SQL_RETURN_IF_ERROR(WalkListing(
      t, ListingStart(t, dir), dir.dir_file_size - 3u, [&](DirEntry e) {
        if (!seen.insert(e.name).second) {
          dup = Status::Corruption("duplicate name in directory: '" + e.name +
                                   "'");
          return false;
        }
        out.push_back(std::move(e));
        return true;
      }));
  SQL_RETURN_IF_ERROR(dup);
  return out;
}

namespace {

// Reads the directory index and returns where to start scanning for `name`:
// the last indexed header whose first name sorts at or before it.
Status SeekWithIndex(const DirectoryTables& t, const Inode& dir,
                     const std::string& name, MetaPos* pos,
                     uint64_t* remaining) {
  MetaPos ipos = dir.dir_index_pos;
  const uint64_t listing = dir.dir_file_size - 3u;
  uint8_t buf[12];
  for (uint32_t i = 0; i < dir.dir_index_count; ++i) {
    SQL_RETURN_IF_ERROR(t.inodes->Read(&ipos, 12, buf));
    const uint32_t index = DecodeLe32(buf);
    const uint32_t start = DecodeLe32(buf + 4);
    const uint32_t size = DecodeLe32(buf + 8) + 1u;
    if (size > kMaxNameSize)
      return Status::Corruption("directory index name too long");
    std::string iname(size, '\0');
    SQL_RETURN_IF_ERROR(
        t.inodes->Read(&ipos, size, reinterpret_cast<uint8_t*>(iname.data())));
    if (iname > name) break;
    if (index > listing)
      return Status::Corruption("directory index points past the listing");
    pos->block = t.directories->start() + start;
    pos->offset =
        static_cast<uint32_t>((dir.dir_offset + index) % kMetadataBlockSize);
    *remaining = listing - index;
  }
  return Status::Ok();
}

}  // namespace

StatusOr<DirEntry> LookupName(const DirectoryTables& t, const Inode& dir,
                              const std::string& name) {
  if (dir.type != InodeType::kDirectory)
    return Status::InvalidArgument("not a directory");
  MetaPos pos = ListingStart(t, dir);
  uint64_t remaining = dir.dir_file_size - 3u;
  if (dir.dir_index_count > 0)
    SQL_RETURN_IF_ERROR(SeekWithIndex(t, dir, name, &pos, &remaining));
  DirEntry found;
  bool hit = false;
  SQL_RETURN_IF_ERROR(WalkListing(t, pos, remaining, [&](DirEntry e) {
    if (e.name == name) {
      found = std::move(e);
      hit = true;
      return false;
    }
    return true;  // names are sorted, but a linear scan is robust to images
                  // that are not
  }));
  if (!hit) return Status::NotFound(name);
  return found;
}

}  // namespace squashlab
