// SPDX-License-Identifier: GPL-2.0-only
// This file implements WalkTree with an explicit stack of open directories.
#include "cli/reader/tree_walker.h"

#include <unordered_set>
#include <vector>

namespace squashlab::cli {

std::string JoinImagePath(const std::string& dir, const std::string& name) {
  return dir == "/" ? "/" + name : dir + "/" + name;
}

std::string CanonicalImagePath(const std::string& path) {
  std::string out;
  size_t i = 0;
  while (i <= path.size()) {
    size_t j = path.find('/', i);
    if (j == std::string::npos) j = path.size();
    std::string part = path.substr(i, j - i);
    if (!part.empty() && part != ".") out += "/" + part;
    i = j + 1;
  }
  return out.empty() ? "/" : out;
}

namespace {
struct OpenDir {
  WalkItem dir;
  std::vector<DirEntry> entries;
  size_t next = 0;
};
}  // namespace

Status WalkTree(Image* image, const std::string& start_path, const Inode& start,
                bool recursive,
                const std::function<Status(const WalkItem&)>& visit,
                const std::function<Status(const WalkItem&)>& leave) {
  SQL_RETURN_IF_ERROR(visit(WalkItem{start_path, start}));
  if (start.type != InodeType::kDirectory) return Status::Ok();
  if (!recursive)
    return leave ? leave(WalkItem{start_path, start}) : Status::Ok();
  std::unordered_set<uint32_t> seen_dirs{start.inode_number};
  std::vector<OpenDir> stack;
  auto open = [&](const std::string& path, const Inode& dir) -> Status {
    auto entries = image->ReadDir(dir);
    if (!entries.ok()) return entries.status().WithContext(path);
    stack.push_back(
        OpenDir{WalkItem{path, dir}, std::move(entries).value(), 0});
    return Status::Ok();
  };
  SQL_RETURN_IF_ERROR(open(start_path, start));
  while (!stack.empty()) {
    OpenDir& top = stack.back();
    if (top.next == top.entries.size()) {
      const WalkItem done = std::move(top.dir);
      stack.pop_back();
      if (leave) SQL_RETURN_IF_ERROR(leave(done));
      continue;
    }
    const DirEntry& e = top.entries[top.next++];
    std::string path = JoinImagePath(top.dir.path, e.name);
    auto inode = image->ReadInode(e);
    if (!inode.ok()) return inode.status().WithContext(top.dir.path);
    SQL_RETURN_IF_ERROR(visit(WalkItem{path, *inode}));
    if (inode->type != InodeType::kDirectory) continue;
    if (!seen_dirs.insert(inode->inode_number).second)
      return Status::Corruption(path + ": directory loop (directory inode " +
                                std::to_string(inode->inode_number) +
                                " seen twice)");
    SQL_RETURN_IF_ERROR(open(path, *inode));  // may invalidate `top`
  }
  return Status::Ok();
}

}  // namespace squashlab::cli
