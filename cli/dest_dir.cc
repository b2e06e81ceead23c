// This file implements DestDir with the *at() system calls: each directory
// on the way is opened with O_NOFOLLOW | O_DIRECTORY from the destination's
// own descriptor, so a symlink planted in the destination is refused, not
// followed.
#include "cli/dest_dir.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <functional>

namespace squashlab::cli {
namespace {

Status Errno(const std::string& what) {
  return Status::IoError(what + ": " + std::strerror(errno));
}

}  // namespace

RelPath SplitImagePath(const std::string& image_path) {
  RelPath out;
  size_t i = 0;
  while (i < image_path.size()) {
    size_t j = image_path.find('/', i);
    if (j == std::string::npos) j = image_path.size();
    if (j > i) out.push_back(image_path.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

StatusOr<DestDir> DestDir::Open(const std::string& path) {
  if (mkdir(path.c_str(), 0755) != 0 && errno != EEXIST) return Errno(path);
  int fd = open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return Errno(path);
  return DestDir(path, fd, geteuid() == 0);
}

DestDir::DestDir(DestDir&& o) noexcept
    : path_(std::move(o.path_)), fd_(o.fd_), is_root_(o.is_root_),
      cached_parent_(std::move(o.cached_parent_)), cached_fd_(o.cached_fd_),
      warnings_(std::move(o.warnings_)) {
  o.fd_ = o.cached_fd_ = -1;
}

DestDir::~DestDir() {
  if (cached_fd_ >= 0) close(cached_fd_);
  if (fd_ >= 0) close(fd_);
}

std::string DestDir::Show(const RelPath& rel) const {
  std::string s = path_;
  for (const std::string& c : rel) s += "/" + c;
  return s;
}

void DestDir::Warn(const std::string& w) {
  std::lock_guard<std::mutex> lock(warnings_mu_);
  warnings_.push_back(w);
}

StatusOr<int> DestDir::Parent(const RelPath& rel) {
  if (rel.empty()) return Status::InvalidArgument("no path");
  RelPath parent(rel.begin(), rel.end() - 1);
  if (parent.empty()) return fd_;
  if (cached_fd_ >= 0 && parent == cached_parent_) return cached_fd_;
  int cur = fd_;
  for (size_t i = 0; i < parent.size(); ++i) {
    int next = openat(cur, parent[i].c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    const int err = errno;
    if (cur != fd_) close(cur);
    if (next < 0) {
      errno = err;
      RelPath upto(parent.begin(), parent.begin() + i + 1);
      if (err == ELOOP || err == ENOTDIR)
        return Status::IoError(Show(upto) + ": refusing to cross a symlink or non-directory");
      return Errno(Show(upto));
    }
    cur = next;
  }
  if (cached_fd_ >= 0) close(cached_fd_);
  cached_parent_ = std::move(parent);
  cached_fd_ = cur;
  return cur;
}

Status DestDir::RemoveIfNotDir(int parent, const std::string& name) {
  struct stat st;
  if (fstatat(parent, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return Status::Ok();
  if (S_ISDIR(st.st_mode)) return Status::IoError(name + ": a directory is in the way");
  if (unlinkat(parent, name.c_str(), 0) != 0) return Errno(name);
  return Status::Ok();
}

Status DestDir::MakeDir(const RelPath& rel) {
  if (rel.empty()) return Status::Ok();  // the destination itself
  SQL_ASSIGN_OR_RETURN(int parent, Parent(rel));
  if (mkdirat(parent, rel.back().c_str(), 0700) == 0) return Status::Ok();
  if (errno != EEXIST) return Errno(Show(rel));
  struct stat st;
  if (fstatat(parent, rel.back().c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return Errno(Show(rel));
  if (!S_ISDIR(st.st_mode)) return Status::IoError(Show(rel) + ": exists and is not a directory");
  return Status::Ok();
}

// Runs make(parent, name); when the name is taken by a non-directory,
// removes it and tries once more (the common case costs one system call).
Status DestDir::CreateReplacing(const RelPath& rel, const std::function<int(int, const char*)>& make) {
  SQL_ASSIGN_OR_RETURN(int parent, Parent(rel));
  const char* name = rel.back().c_str();
  if (make(parent, name) == 0) return Status::Ok();
  if (errno != EEXIST) return Errno(Show(rel));
  SQL_RETURN_IF_ERROR(RemoveIfNotDir(parent, rel.back()));
  if (make(parent, name) != 0) return Errno(Show(rel));
  return Status::Ok();
}

StatusOr<int> DestDir::CreateFile(const RelPath& rel, mode_t mode) {
  int fd = -1;
  SQL_RETURN_IF_ERROR(CreateReplacing(rel, [&](int parent, const char* name) {
    fd = openat(parent, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    return fd < 0 ? -1 : 0;
  }));
  return fd;
}

Status DestDir::MakeSymlink(const RelPath& rel, const std::string& target) {
  return CreateReplacing(rel, [&](int parent, const char* name) {
    return symlinkat(target.c_str(), parent, name);
  });
}

Status DestDir::MakeNode(const RelPath& rel, mode_t type, dev_t rdev) {
  return CreateReplacing(rel, [&](int parent, const char* name) {
    return mknodat(parent, name, type | 0600, rdev);
  });
}

Status DestDir::MakeHardLink(const RelPath& existing, const RelPath& rel) {
  // Open the existing file's parent separately: Parent() caches one fd.
  SQL_ASSIGN_OR_RETURN(int from_parent, Parent(existing));
  int from = dup(from_parent);
  if (from < 0) return Errno(Show(existing));
  auto to_parent = Parent(rel);
  Status st = to_parent.status();
  if (st.ok()) st = RemoveIfNotDir(*to_parent, rel.back());
  if (st.ok() && linkat(from, existing.back().c_str(), *to_parent, rel.back().c_str(), 0) != 0)
    st = Errno(Show(rel));
  close(from);
  return st;
}

Status DestDir::SetFileAttributes(int fd, const RelPath& rel, const Attributes& a) {
  if (is_root_ && fchown(fd, a.uid, a.gid) != 0) return Errno(Show(rel));
  // Created with its permission bits (umask 0); chown cleared set-id bits.
  if ((a.mode & 07000) != 0 && fchmod(fd, a.mode) != 0) return Errno(Show(rel));
  for (const Xattr& x : a.xattrs) {
    if (fsetxattr(fd, x.name.c_str(), x.value.data(), x.value.size(), 0) != 0)
      Warn(Show(rel) + ": xattr " + x.name + " not set: " + std::strerror(errno));
  }
  const struct timespec times[2] = {{a.mtime, 0}, {a.mtime, 0}};
  if (futimens(fd, times) != 0) return Errno(Show(rel));
  return Status::Ok();
}

Status DestDir::SetAttributes(const RelPath& rel, bool is_symlink, const Attributes& a) {
  int parent = fd_;
  const char* name = ".";
  if (!rel.empty()) {
    SQL_ASSIGN_OR_RETURN(parent, Parent(rel));
    name = rel.back().c_str();
  }
  if (is_root_ && fchownat(parent, name, a.uid, a.gid, AT_SYMLINK_NOFOLLOW) != 0)
    return Errno(Show(rel));
  if (!is_symlink && fchmodat(parent, name, a.mode, 0) != 0) return Errno(Show(rel));
  for (const Xattr& x : a.xattrs) {
    const std::string full = Show(rel);
    if (lsetxattr(full.c_str(), x.name.c_str(), x.value.data(), x.value.size(), 0) != 0)
      Warn(full + ": xattr " + x.name + " not set: " + std::strerror(errno));
  }
  const struct timespec times[2] = {{a.mtime, 0}, {a.mtime, 0}};
  if (utimensat(parent, name, times, AT_SYMLINK_NOFOLLOW) != 0) return Errno(Show(rel));
  return Status::Ok();
}

}  // namespace squashlab::cli
