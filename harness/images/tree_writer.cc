// SPDX-License-Identifier: GPL-2.0-only
// This file implements writing a generated tree to disk and as a
// gensquashfs pack file. Times are set last, deepest first, so that
// writing a directory's children does not change its mtime.
#include "harness/images/tree_writer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <vector>

namespace squashlab::images {
namespace {

Status Errno(const std::string& what, const std::string& path) {
  return Status::IoError(what + " " + path + ": " + std::strerror(errno));
}

Status WriteFile(const Entry& e, const std::string& path) {
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return Errno("create", path);
  std::vector<uint8_t> buf(256 * 1024);
  Status st;
  for (uint64_t at = 0; at < e.size && st.ok();) {
    size_t n = static_cast<size_t>(std::min<uint64_t>(buf.size(), e.size - at));
    FillBytes(e, at, buf.data(), n);
    for (size_t done = 0; done < n && st.ok();) {
      ssize_t w = write(fd, buf.data() + done, n - done);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) st = Errno("write", path);
      done += w > 0 ? static_cast<size_t>(w) : 0;
    }
    at += n;
  }
  if (st.ok() && fchmod(fd, e.mode) != 0) st = Errno("chmod", path);
  if (close(fd) != 0 && st.ok()) st = Errno("close", path);
  return st;
}

Status SetXattrs(const Entry& e, const std::string& path) {
  for (const XattrPair& x : e.xattrs) {
    if (lsetxattr(path.c_str(), x.name.c_str(), x.value.data(), x.value.size(),
                  0) == 0)
      continue;
    Status st = Errno("setting " + x.name + " on", path);
    if (errno == ENOTSUP)
      return Status::IoError(st.message() +
                             " (the file system there must hold user.* "
                             "xattrs; point SQUASHLAB_CACHE or the output "
                             "directory elsewhere)");
    return st;
  }
  return Status::Ok();
}

Status MakeEntry(const Entry& e, const std::string& root) {
  const std::string path = root + "/" + e.path;
  switch (e.kind) {
    case EntryKind::kDir:
      if (mkdir(path.c_str(), 0700) != 0) return Errno("mkdir", path);
      break;
    case EntryKind::kFile:
      SQL_RETURN_IF_ERROR(WriteFile(e, path));
      break;
    case EntryKind::kSymlink:
      if (symlink(e.target.c_str(), path.c_str()) != 0)
        return Errno("symlink", path);
      break;
    case EntryKind::kHardLink:
      if (link((root + "/" + e.target).c_str(), path.c_str()) != 0)
        return Errno("link", path);
      return Status::Ok();  // the target's mode, times and xattrs
  }
  return SetXattrs(e, path);
}

Status SetTimes(const std::string& path, uint32_t mtime) {
  timespec ts[2] = {{mtime, 0}, {mtime, 0}};
  if (utimensat(AT_FDCWD, path.c_str(), ts, AT_SYMLINK_NOFOLLOW) != 0)
    return Errno("utimensat", path);
  return Status::Ok();
}

// Pack-file words are quoted when they hold anything but plain characters.
std::string Word(const std::string& s) {
  if (s.find_first_of(" \t\"\\") == std::string::npos && !s.empty()) return s;
  std::string q = "\"";
  for (char c : s)
    q += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
  return q + "\"";
}

}  // namespace

Status WriteTree(const Tree& tree, const std::string& root) {
  for (const Entry& e : tree.entries) SQL_RETURN_IF_ERROR(MakeEntry(e, root));
  for (const Entry& e : tree.entries)
    if (e.kind == EntryKind::kDir &&
        chmod((root + "/" + e.path).c_str(), e.mode) != 0)
      return Errno("chmod", root + "/" + e.path);
  for (auto it = tree.entries.rbegin(); it != tree.entries.rend(); ++it)
    if (it->kind != EntryKind::kHardLink)
      SQL_RETURN_IF_ERROR(SetTimes(root + "/" + it->path, it->mtime));
  if (chmod(root.c_str(), 0755) != 0) return Errno("chmod", root);
  return SetTimes(root, kBaseTime);
}

Status WritePackFile(const Tree& tree, const std::string& path) {
  std::ofstream out(path);
  char mode[8];
  for (const Entry& e : tree.entries) {
    std::snprintf(mode, sizeof mode, "%04o", e.mode);
    const std::string common = " " + Word("/" + e.path) + " " + mode + " " +
                               std::to_string(e.uid) + " " +
                               std::to_string(e.gid);
    switch (e.kind) {
      case EntryKind::kDir:
        out << "dir" << common << "\n";
        break;
      case EntryKind::kFile:
        out << "file" << common << " " << Word(e.path) << "\n";
        break;
      case EntryKind::kSymlink:
        out << "slink" << common << " " << Word(e.target) << "\n";
        break;
      case EntryKind::kHardLink:
        out << "link" << common << " " << Word("/" + e.target) << "\n";
        break;
    }
  }
  out.close();
  if (!out) return Status::IoError("cannot write pack file " + path);
  return Status::Ok();
}

}  // namespace squashlab::images
