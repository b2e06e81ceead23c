// SPDX-License-Identifier: GPL-2.0-only
// This file implements writing a TreeModel to disk and comparing an image
// with it.
#include "proptests/tree_model.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <algorithm>
#include <map>

namespace squashlab::proptests {

uint8_t ContentByte(const Node& n, uint64_t offset) {
  for (const auto& [start, len] : n.holes) {
    if (offset >= start && offset < start + len) return 0;
  }
  return static_cast<uint8_t>((offset * 167 + n.seed * 13 + (offset >> 9)) %
                              253);
}

namespace {

bool WriteFile(const Node& n, const std::string& path, std::string* why) {
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
  if (fd < 0) return *why = "create " + path, false;
  std::vector<uint8_t> buf(65536);
  for (uint64_t off = 0; off < n.size;) {
    // Skip whole holes with lseek so that the source file is sparse too.
    bool in_hole = false;
    for (const auto& [start, len] : n.holes) {
      if (off >= start && off < start + len) {
        off = std::min(n.size, start + len);
        in_hole = true;
      }
    }
    if (in_hole) continue;
    uint64_t end = std::min<uint64_t>(n.size, off + buf.size());
    for (const auto& [start, len] : n.holes) {
      if (start > off && start < end) end = start;
    }
    for (uint64_t i = off; i < end; ++i) buf[i - off] = ContentByte(n, i);
    if (pwrite(fd, buf.data(), end - off, static_cast<off_t>(off)) !=
        static_cast<ssize_t>(end - off)) {
      close(fd);
      return *why = "write " + path, false;
    }
    off = end;
  }
  bool ok = ftruncate(fd, static_cast<off_t>(n.size)) == 0;
  close(fd);
  if (!ok) *why = "truncate " + path;
  return ok;
}

bool Create(const TreeModel& t, size_t i, const std::string& path,
            std::map<size_t, std::string>* file_paths, std::string* why) {
  const Node& n = t.nodes[i];
  switch (n.kind) {
    case NodeKind::kDir:
      if (mkdir(path.c_str(), 0755) != 0) return *why = "mkdir " + path, false;
      for (size_t c : n.children) {
        if (!Create(t, c, path + "/" + t.nodes[c].name, file_paths, why))
          return false;
      }
      break;
    case NodeKind::kFile:
      if (!WriteFile(n, path, why)) return false;
      (*file_paths)[i] = path;
      break;
    case NodeKind::kSymlink:
      if (symlink(n.symlink_target.c_str(), path.c_str()) != 0)
        return *why = "symlink " + path, false;
      break;
    case NodeKind::kFifo:
      if (mkfifo(path.c_str(), 0644) != 0)
        return *why = "mkfifo " + path, false;
      break;
    case NodeKind::kHardLink:
      (*file_paths)[i] = path;  // linked once every file exists
      return true;
  }
  for (const auto& [k, v] : n.xattrs) {
    if (lsetxattr(path.c_str(), k.c_str(), v.data(), v.size(), 0) != 0)
      return *why = "setxattr " + k + " on " + path, false;
  }
  if (n.kind != NodeKind::kSymlink && chmod(path.c_str(), n.mode) != 0)
    return *why = "chmod", false;
  return true;
}

// Times last, children before parents, so that creating entries does not
// move a directory's mtime afterwards.
void SetTimes(const TreeModel& t, size_t i, const std::string& path) {
  const Node& n = t.nodes[i];
  if (n.kind == NodeKind::kHardLink) return;
  for (size_t c : n.children) SetTimes(t, c, path + "/" + t.nodes[c].name);
  const struct timespec ts[2] = {{n.mtime, 0}, {n.mtime, 0}};
  utimensat(AT_FDCWD, path.c_str(), ts, AT_SYMLINK_NOFOLLOW);
}

InodeType ExpectedType(NodeKind k) {
  switch (k) {
    case NodeKind::kDir:
      return InodeType::kDirectory;
    case NodeKind::kSymlink:
      return InodeType::kSymlink;
    case NodeKind::kFifo:
      return InodeType::kFifo;
    default:
      return InodeType::kFile;
  }
}

std::string CompareFile(Image* image, const Inode& in, const Node& n,
                        const std::string& path) {
  if (in.file_size != n.size)
    return path + ": size " + std::to_string(in.file_size);
  std::vector<uint8_t> buf(1 << 20);
  for (uint64_t off = 0; off < n.size; off += buf.size()) {
    auto got = image->ReadFile(in, off, buf);
    if (!got.ok()) return path + ": " + got.status().ToString();
    for (size_t i = 0; i < *got; ++i) {
      if (buf[i] != ContentByte(n, off + i))
        return path + ": byte " + std::to_string(off + i) + " differs";
    }
  }
  return "";
}

std::string CompareNode(Image* image, const TreeModel& t, size_t i,
                        const std::string& path,
                        const std::vector<uint32_t>& nlinks,
                        const CompareOptions& opts) {
  const Node& link = t.nodes[i];
  const Node& n =
      link.kind == NodeKind::kHardLink ? t.nodes[link.link_to] : link;
  auto in = image->Lookup(path);
  if (!in.ok()) return path + ": " + in.status().ToString();
  if (in->type != ExpectedType(n.kind))
    return path + ": type " + InodeTypeName(in->type);
  if (n.kind != NodeKind::kSymlink && in->permissions != n.mode)
    return path + ": mode " + std::to_string(in->permissions);
  const bool check_time =
      opts.expect_times && (i != 0 || opts.expect_root_time);
  if (check_time && in->mtime != n.mtime)
    return path + ": mtime " + std::to_string(in->mtime);
  if (n.kind == NodeKind::kFile) {
    const size_t target = link.kind == NodeKind::kHardLink ? link.link_to : i;
    if (opts.expect_hard_links && in->nlink != nlinks[target])
      return path + ": nlink " + std::to_string(in->nlink);
    std::string d = CompareFile(image, *in, n, path);
    if (!d.empty()) return d;
  }
  if (n.kind == NodeKind::kSymlink && in->symlink_target != n.symlink_target)
    return path + ": symlink target differs";
  auto xs = image->ListXattrs(*in);
  if (!xs.ok()) return path + ": " + xs.status().ToString();
  std::vector<std::pair<std::string, std::string>> got, want;
  for (const auto& x : *xs) got.emplace_back(x.name, x.value);
  if (opts.expect_xattrs) want = n.xattrs;
  std::sort(got.begin(), got.end());
  std::sort(want.begin(), want.end());
  if (got != want)
    return path + ": xattrs differ (" + std::to_string(got.size()) + " vs " +
           std::to_string(want.size()) + ")";
  if (n.kind == NodeKind::kDir) {
    auto entries = image->ReadDir(*in);
    if (!entries.ok()) return path + ": " + entries.status().ToString();
    if (entries->size() != n.children.size())
      return path + ": " + std::to_string(entries->size()) + " entries";
    for (size_t c : n.children) {
      std::string d =
          CompareNode(image, t, c, path + "/" + t.nodes[c].name, nlinks, opts);
      if (!d.empty()) return d;
    }
  }
  return "";
}

}  // namespace

void showValue(const TreeModel& t, std::ostream& os) {
  static const char* kKinds[] = {"file", "dir", "symlink", "fifo", "hardlink"};
  for (size_t i = 0; i < t.nodes.size(); ++i) {
    const Node& n = t.nodes[i];
    os << "\n  #" << i << " " << kKinds[static_cast<int>(n.kind)] << " '"
       << n.name << "' mode=0" << std::oct << n.mode << std::dec
       << " mtime=" << n.mtime;
    if (n.kind == NodeKind::kFile)
      os << " size=" << n.size << " holes=" << n.holes.size();
    if (n.kind == NodeKind::kHardLink) os << " -> #" << n.link_to;
    if (n.kind == NodeKind::kSymlink)
      os << " -> (" << n.symlink_target.size() << " chars)";
    if (!n.xattrs.empty()) os << " xattrs=" << n.xattrs.size();
    if (!n.children.empty()) os << " children=" << n.children.size();
  }
}

bool Materialize(const TreeModel& t, const std::string& dir, std::string* why) {
  std::map<size_t, std::string> file_paths;
  if (!Create(t, 0, dir, &file_paths, why)) return false;
  for (size_t i = 0; i < t.nodes.size(); ++i) {
    if (t.nodes[i].kind != NodeKind::kHardLink) continue;
    const std::string& target = file_paths[t.nodes[i].link_to];
    if (link(target.c_str(), file_paths[i].c_str()) != 0)
      return *why = "link " + file_paths[i], false;
  }
  SetTimes(t, 0, dir);
  return true;
}

std::string CompareImage(Image* image, const TreeModel& t,
                         const CompareOptions& opts) {
  std::vector<uint32_t> nlinks(t.nodes.size(), 1);
  for (const Node& n : t.nodes) {
    if (n.kind == NodeKind::kHardLink) ++nlinks[n.link_to];
  }
  return CompareNode(image, t, 0, "/", nlinks, opts);
}

}  // namespace squashlab::proptests
