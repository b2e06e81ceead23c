// SPDX-License-Identifier: GPL-2.0-only
// This file implements the ls and namei tasks over real kernel code.
#include "harness/names_workload.h"

#include <algorithm>
#include <cerrno>
#include <string>
#include <utility>
#include <vector>

#include "harness/image_model.h"
#include "model/kernel/kernel.h"
#include "model/kernel/page.h"
#include "model/linux/vfs_walk.h"
#include "model/mm/read_mapping.h"
#include "reader/inode.h"

namespace squashlab {
namespace {

constexpr size_t kDirs = 4;      // the root and the largest directories
constexpr size_t kOfAKind = 4;   // symlinks, inodes with xattrs
constexpr int kAbsentProbe = 1;  // names no directory holds

// include/linux/fs.h's DT_* of an inode type (fs/squashfs/dir.c
// squashfs_filetype_table).
unsigned DtOf(unsigned type) {
  switch (static_cast<InodeType>(type)) {
    case InodeType::kDirectory:
      return 4;
    case InodeType::kFile:
      return 8;
    case InodeType::kSymlink:
      return 10;
    case InodeType::kBlockDevice:
      return 6;
    case InodeType::kCharDevice:
      return 2;
    case InodeType::kFifo:
      return 1;
    case InodeType::kSocket:
      return 12;
  }
  return 0;
}

// The S_IFMT bits of an inode type.
unsigned IfmtOf(unsigned type) {
  switch (static_cast<InodeType>(type)) {
    case InodeType::kDirectory:
      return 0040000;
    case InodeType::kFile:
      return 0100000;
    case InodeType::kSymlink:
      return 0120000;
    case InodeType::kBlockDevice:
      return 0060000;
    case InodeType::kCharDevice:
      return 0020000;
    case InodeType::kFifo:
      return 0010000;
    case InodeType::kSocket:
      return 0140000;
  }
  return 0;
}

std::string Shown(const std::string& path) { return "/" + path; }

// An errno from the code under test: accepted under a fault plan (the task
// stops), else a report.
bool Failed(bool eio_allowed, const std::string& call, long err) {
  if (err >= 0) return false;
  if (eio_allowed) return true;
  Kernel::Current().Bug(
      Check::kWrongData,
      "squashlab: a name operation failed with no fault injected",
      call + " = " + std::to_string(err));
}

// What getdents of `dir` must list: ".", "..", then its entries in order.
std::vector<LinuxDirent> Expected(const NodeModel& dir) {
  std::vector<LinuxDirent> want;
  want.push_back(LinuxDirent{".", dir.ino, 4});
  want.push_back(LinuxDirent{"..", dir.parent, 4});
  for (const NodeModel::Entry& e : dir.entries)
    want.push_back(LinuxDirent{e.name, e.ino, DtOf(e.type)});
  return want;
}

void CheckEntries(const NodeModel& dir, const std::vector<LinuxDirent>& got,
                  size_t first, const std::vector<LinuxDirent>& want,
                  const std::string& how) {
  for (size_t i = 0; i < got.size(); i++) {
    const size_t w = first + i;
    const LinuxDirent& g = got[i];
    const bool extra = w >= want.size();
    if (!extra && g.name == want[w].name && g.ino == want[w].ino &&
        g.type == want[w].type)
      continue;
    std::string body = "getdents(" + Shown(dir.path) + ") " + how + ": entry " +
                       std::to_string(w) + " is \"" + g.name + "\" ino " +
                       std::to_string(g.ino) + " type " +
                       std::to_string(g.type);
    body += extra ? ", past the directory's " + std::to_string(want.size()) +
                        " entries"
                  : ", the image holds \"" + want[w].name + "\" ino " +
                        std::to_string(want[w].ino) + " type " +
                        std::to_string(want[w].type);
    Kernel::Current().Bug(Check::kWrongData,
                          "squashlab: getdents returned wrong entries", body);
  }
}

// getdents calls of `room` entries from *pos until the directory's end or
// `limit` entries; each call's end position and the count before it.
bool ListFrom(kabi::inode* di, const NodeModel& dir, int64_t pos, size_t first,
              size_t room, size_t limit, bool eio_allowed,
              std::vector<std::pair<int64_t, size_t>>* marks) {
  const std::vector<LinuxDirent> want = Expected(dir);
  size_t at = first;
  for (int calls = 0; calls < 4096; calls++) {
    std::vector<LinuxDirent> got;
    if (Failed(eio_allowed,
               "getdents(" + Shown(dir.path) + ", pos " + std::to_string(pos) +
                   ")",
               LinuxGetdents(di, &pos, room, &got)))
      return false;
    if (got.size() > room)
      Kernel::Current().Bug(Check::kWrongData,
                            "squashlab: getdents returned wrong entries",
                            "getdents(" + Shown(dir.path) + ") with room for " +
                                std::to_string(room) + " entries emitted " +
                                std::to_string(got.size()));
    CheckEntries(dir, got, at, want,
                 "in calls of " + std::to_string(room) + " entries");
    at += got.size();
    if (got.empty()) break;
    if (marks != nullptr) marks->emplace_back(pos, at);
    if (at >= limit) return true;
  }
  if (at != want.size())
    Kernel::Current().Bug(
        Check::kWrongData, "squashlab: getdents returned wrong entries",
        "getdents(" + Shown(dir.path) + ") in calls of " +
            std::to_string(room) + " entries ended after " +
            std::to_string(at) + " entries, the image holds " +
            std::to_string(want.size()));
  return true;
}

// The inode at `path` (components looked up one by one from the root).
kabi::inode* Walk(kabi::super_block* sb, const NodeModel& node,
                  bool eio_allowed) {
  kabi::inode* i = LinuxRootInode(sb);
  size_t from = 0;
  const std::string& p = node.path;
  while (i != nullptr && from < p.size()) {
    size_t slash = p.find('/', from);
    if (slash == std::string::npos) slash = p.size();
    const std::string name = p.substr(from, slash - from);
    int err = 0;
    kabi::inode* next = LinuxLookupIn(i, name, &err);
    if (next == nullptr) {
      Failed(eio_allowed,
             "lookup(\"" + name + "\") in " + Shown(p.substr(0, from)),
             err < 0 ? err : -ENOENT);
      return nullptr;
    }
    i = next;
    from = slash + 1;
  }
  return i;
}

void CheckInode(kabi::inode* i, const NodeModel& node) {
  const unsigned fmt = LinuxInodeMode(i) & 0170000;
  if (LinuxInodeNumber(i) == node.ino && fmt == IfmtOf(node.type)) return;
  Kernel::Current().Bug(
      Check::kWrongData, "squashlab: lookup returned the wrong inode",
      "lookup(" + Shown(node.path) + "): ino " +
          std::to_string(LinuxInodeNumber(i)) + " mode " + std::to_string(fmt) +
          ", the image holds ino " + std::to_string(node.ino) + " mode " +
          std::to_string(IfmtOf(node.type)));
}

// readlink: page_get_link reads the link's first page through the page
// cache (read_mapping_folio) and takes i_size bytes of it.
void ReadLink(kabi::inode* i, const NodeModel& node, bool eio_allowed) {
  inode* mi = LinuxModelInode(i);
  if (mi == nullptr) return;
  const int64_t size = LinuxInodeSize(i);
  int err = 0;
  page* p = read_mapping_page(mi->i_mapping, 0, &err);
  if (p == nullptr) {
    Failed(eio_allowed, "readlink(" + Shown(node.path) + ")", err);
    return;
  }
  std::string got;
  if (size >= 0 && size < static_cast<int64_t>(PAGE_SIZE))
    got.assign(static_cast<const char*>(page_address(p)),
               static_cast<size_t>(size));
  put_page(p);
  if (size == static_cast<int64_t>(node.target.size()) && got == node.target)
    return;
  Kernel::Current().Bug(
      Check::kWrongData, "squashlab: readlink returned the wrong target",
      "readlink(" + Shown(node.path) + ") = \"" + got + "\" (i_size " +
          std::to_string(size) + "), the image holds \"" + node.target + "\"");
}

// getfattr -d -m -: the names listed, then each value.
void Xattrs(kabi::inode* i, const NodeModel& node, bool eio_allowed) {
  std::vector<std::string> names;
  const int err = LinuxListXattr(i, 65536, &names);
  if (err == -EOPNOTSUPP && node.xattrs.empty()) return;
  if (Failed(eio_allowed, "listxattr(" + Shown(node.path) + ")", err)) return;
  std::vector<std::string> want;
  for (const auto& [name, value] : node.xattrs) want.push_back(name);
  std::vector<std::string> a = names, b = want;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  if (a != b) {
    std::string got_s, want_s;
    for (const auto& n : names) got_s += " " + n;
    for (const auto& n : want) want_s += " " + n;
    Kernel::Current().Bug(
        Check::kWrongData, "squashlab: listxattr returned wrong names",
        "listxattr(" + Shown(node.path) +
            "):" + (got_s.empty() ? " none" : got_s) +
            "; the image holds:" + (want_s.empty() ? " none" : want_s));
  }
  for (const auto& [name, value] : node.xattrs) {
    std::string got;
    const long n = LinuxGetXattr(i, name, 65536, &got);
    if (Failed(eio_allowed,
               "getxattr(" + Shown(node.path) + ", \"" + name + "\")", n))
      return;
    if (got != value)
      Kernel::Current().Bug(
          Check::kWrongData, "squashlab: getxattr returned a wrong value",
          "getxattr(" + Shown(node.path) + ", \"" + name +
              "\"): " + std::to_string(got.size()) +
              " bytes, the image holds " + std::to_string(value.size()) +
              (got.size() == value.size() ? " (the bytes differ)" : ""));
  }
}

}  // namespace

NamesChoice ChooseNames(const ImageModel& image) {
  NamesChoice c;
  std::vector<const NodeModel*> dirs, links, xattrs;
  const NodeModel* deepest = nullptr;
  size_t depth = 0;
  for (const NodeModel& n : image.nodes) {
    if (static_cast<InodeType>(n.type) == InodeType::kDirectory)
      dirs.push_back(&n);
    if (static_cast<InodeType>(n.type) == InodeType::kSymlink &&
        links.size() < kOfAKind)
      links.push_back(&n);
    if (!n.xattrs.empty() && xattrs.size() < kOfAKind) xattrs.push_back(&n);
    const size_t d =
        static_cast<size_t>(std::count(n.path.begin(), n.path.end(), '/'));
    if (!n.path.empty() && (deepest == nullptr || d > depth)) {
      deepest = &n;
      depth = d;
    }
  }
  if (dirs.empty()) return c;
  c.dirs.push_back(dirs.front());  // the root
  std::vector<const NodeModel*> rest(dirs.begin() + 1, dirs.end());
  std::stable_sort(rest.begin(), rest.end(),
                   [](const NodeModel* a, const NodeModel* b) {
                     return a->entries.size() > b->entries.size();
                   });
  for (const NodeModel* d : rest)
    if (c.dirs.size() < kDirs) c.dirs.push_back(d);
  auto add = [&c](const NodeModel* n) {
    if (n != nullptr &&
        std::find(c.paths.begin(), c.paths.end(), n) == c.paths.end())
      c.paths.push_back(n);
  };
  for (const NodeModel* n : links) add(n);
  for (const NodeModel* n : xattrs) add(n);
  add(deepest);
  // The last entry of the largest directory: squashfs_lookup's index.
  const NodeModel* big = c.dirs.size() > 1 ? c.dirs[1] : c.dirs[0];
  if (!big->entries.empty()) {
    const std::string last = big->entries.back().name;
    const std::string path = big->path.empty() ? last : big->path + "/" + last;
    for (const NodeModel& n : image.nodes)
      if (n.path == path) add(&n);
  }
  return c;
}

void spawn_ls(Kernel& k, kabi::super_block* sb, const NamesChoice& choice,
              const std::string& comm, std::vector<size_t> rooms,
              size_t max_entries, bool eio_allowed) {
  TaskSpec spec;
  spec.name = comm;
  spec.body = [sb, dirs = choice.dirs, rooms, max_entries, eio_allowed] {
    for (size_t d = 0; d < dirs.size(); d++) {
      const NodeModel& dir = *dirs[d];
      kabi::inode* di = Walk(sb, dir, eio_allowed);
      if (di == nullptr) return;
      const size_t room = rooms[d % rooms.size()];
      std::vector<std::pair<int64_t, size_t>> marks;
      if (!ListFrom(di, dir, 0, 0, room, max_entries, eio_allowed, &marks))
        return;
      // seekdir to where a call in the middle stopped, then the rest in
      // calls of another size.
      if (marks.size() < 2) continue;
      const auto [pos, first] = marks[marks.size() / 2];
      if (!ListFrom(di, dir, pos, first, rooms[(d + 1) % rooms.size()],
                    max_entries, eio_allowed, nullptr))
        return;
    }
  };
  k.Spawn(std::move(spec));
}

void spawn_namei(Kernel& k, kabi::super_block* sb, const NamesChoice& choice,
                 const std::string& comm, bool eio_allowed) {
  TaskSpec spec;
  spec.name = comm;
  spec.body = [sb, paths = choice.paths, eio_allowed] {
    for (const NodeModel* node : paths) {
      kabi::inode* i = Walk(sb, *node, eio_allowed);
      if (i == nullptr) return;
      CheckInode(i, *node);
      if (static_cast<InodeType>(node->type) == InodeType::kSymlink)
        ReadLink(i, *node, eio_allowed);
      Xattrs(i, *node, eio_allowed);
    }
    for (int n = 0; n < kAbsentProbe; n++) {
      int err = 0;
      kabi::inode* root = LinuxRootInode(sb);
      kabi::inode* none = LinuxLookupIn(root, "squashlab.absent", &err);
      if (none != nullptr || err != -ENOENT) {
        if (none == nullptr && eio_allowed) return;
        Kernel::Current().Bug(
            Check::kWrongData, "squashlab: lookup returned the wrong inode",
            "lookup(/squashlab.absent) = " +
                (none ? "ino " + std::to_string(LinuxInodeNumber(none))
                      : std::to_string(err)) +
                ", the image holds no such name (-ENOENT)");
      }
    }
  };
  k.Spawn(std::move(spec));
}

}  // namespace squashlab
