// SPDX-License-Identifier: GPL-2.0-only
// This file implements DestDir with the *at() system calls. Each entry is
// made by one call relative to an anchor's descriptor; the last component is
// never followed (O_EXCL|O_NOFOLLOW, AT_SYMLINK_NOFOLLOW, or it is created
// by the call itself), and the components before it are directories made or
// checked here that no other user can replace (see dest_dir.h).
#include "cli/reader/dest_dir.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace squashlab::cli {
namespace {

Status Errno(const std::string& what) {
  return Status::IoError(what + ": " + std::strerror(errno));
}

// Only this user (or root) may add, remove or rename entries. The group
// bits are the ACL mask when there is an ACL, so named entries are covered.
bool IsProtected(const struct stat& st, uid_t euid) {
  return (st.st_uid == euid || st.st_uid == 0) && (st.st_mode & 022) == 0;
}

const char* Rel(const std::string& rel) {
  return rel.empty() ? "." : rel.c_str();
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

StatusOr<std::unique_ptr<DestDir>> DestDir::Open(const std::string& path,
                                                 bool overwrite) {
  std::unique_ptr<DestDir> d(new DestDir(path, overwrite));
  d->euid_ = geteuid();
  d->egid_ = getegid();
  if (mkdir(path.c_str(), 0755) != 0 && errno != EEXIST) return Errno(path);
  Dir root;
  root.fd = open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (root.fd < 0) return Errno(path);
  struct stat st;
  if (fstat(root.fd, &st) != 0) {
    const Status s = Errno(path);
    close(root.fd);
    return s;
  }
  root.is_protected = IsProtected(st, d->euid_);
  root.fresh = (st.st_mode & S_ISGID) == 0;
  d->dirs_.push_back(std::move(root));
  return d;
}

DestDir::~DestDir() {
  for (Dir& d : dirs_) {
    if (d.fd >= 0) close(d.fd);
  }
}

std::string DestDir::Show(DirId dir, const std::string& name) const {
  std::string tail = name.empty() ? "" : "/" + name;
  for (DirId i = dir; i != kDestRoot; i = dirs_[i].parent)
    tail = "/" + dirs_[i].name + tail;
  return path_ + tail;
}

size_t DestDir::open_anchors() const {
  size_t n = 0;
  for (const Dir& d : dirs_) n += d.fd >= 0 ? 1 : 0;
  return n;
}

std::vector<std::string> DestDir::warnings() const {
  std::lock_guard<std::mutex> lock(warnings_mu_);
  return warnings_;
}

void DestDir::Warn(const std::string& w) const {
  std::lock_guard<std::mutex> lock(warnings_mu_);
  warnings_.push_back(w);
}

DestDir::Location DestDir::Locate(DirId parent, const std::string& name) const {
  const Dir& p = dirs_[parent];
  if (p.fd >= 0) return {p.fd, name};
  return {dirs_[p.anchor].fd, p.rel + "/" + name};
}

Status DestDir::CheckOpen(DirId parent) const {
  if (parent >= dirs_.size() || dirs_[parent].finished)
    return Status::InvalidArgument("directory " + std::to_string(parent) +
                                   " is finished");
  return Status::Ok();
}

bool DestDir::NeedsChown(DirId parent, const Attributes& a) const {
  return is_root() &&
         (a.uid != euid_ || a.gid != egid_ || !dirs_[parent].fresh);
}

// `d` is reached through a parent other users may change: hold it open, and
// check that what was opened is a directory of ours (when just made, mode
// 0700) rather than something swapped in after mkdirat.
Status DestDir::AddAnchor(Dir d, int fd, bool expect_fresh) {
  const std::string shown = Show(d.parent, d.name);
  struct stat st;
  if (fstat(fd, &st) != 0) {
    const Status s = Errno(shown);
    close(fd);
    return s;
  }
  if (expect_fresh && (st.st_uid != euid_ || (st.st_mode & 0777) != 0700)) {
    close(fd);
    return Status::IoError(shown +
                           ": replaced by another directory while extracting");
  }
  d.fd = fd;
  d.anchor = static_cast<DirId>(dirs_.size());
  d.rel.clear();
  d.is_protected = IsProtected(st, euid_);
  if (!expect_fresh) d.fresh = (st.st_mode & S_ISGID) == 0;
  dirs_.push_back(std::move(d));
  return Status::Ok();
}

StatusOr<DirId> DestDir::MakeDir(DirId parent, const std::string& name) {
  SQL_RETURN_IF_ERROR(CheckOpen(parent));
  auto [fd, rel] = Locate(parent, name);
  const Dir& p = dirs_[parent];
  Dir d;
  d.parent = parent;
  d.name = name;
  d.anchor = p.fd >= 0 ? parent : p.anchor;
  d.rel = rel;
  const bool made = mkdirat(fd, rel.c_str(), 0700) == 0;
  if (!made && errno != EEXIST) return Errno(Show(parent, name));
  if (!made && !overwrite_)
    return Status::IoError(Show(parent, name) +
                           ": already exists (-f to overwrite)");
  // Made here: 0700, a set-group-ID parent's group is inherited with the bit.
  d.fresh = made && p.fresh;
  d.is_protected = made;
  const DirId id = static_cast<DirId>(dirs_.size());
  if (made && p.is_protected) {
    dirs_.push_back(std::move(d));
    return id;
  }
  const int dfd =
      openat(fd, rel.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (dfd < 0) {
    if (errno == ELOOP || errno == ENOTDIR)
      return Status::IoError(Show(parent, name) +
                             ": exists and is a symlink or not a directory; "
                             "not extracting through it");
    return Errno(Show(parent, name));
  }
  if (!p.is_protected) {
    SQL_RETURN_IF_ERROR(AddAnchor(std::move(d), dfd, made));
    return id;
  }
  // An existing directory under a protected parent: reached by path. When
  // its own entries are open to others, its children become anchors.
  struct stat st;
  const int rc = fstat(dfd, &st);
  close(dfd);
  if (rc != 0) return Errno(Show(parent, name));
  d.is_protected = IsProtected(st, euid_);
  d.fresh = (st.st_mode & S_ISGID) == 0;
  dirs_.push_back(std::move(d));
  return id;
}

template <typename Make>
Status DestDir::CreateAt(const Location& at, const std::string& shown,
                         const Make& make) const {
  const char* rel = at.rel.c_str();
  if (make(at.fd, rel) == 0) return Status::Ok();
  if (errno != EEXIST) return Errno(shown);
  if (!overwrite_)
    return Status::IoError(shown + ": already exists (-f to overwrite)");
  struct stat st;
  if (fstatat(at.fd, rel, &st, AT_SYMLINK_NOFOLLOW) == 0) {
    if (S_ISDIR(st.st_mode))
      return Status::IoError(shown + ": a directory is in the way");
    if (unlinkat(at.fd, rel, 0) != 0) return Errno(shown);
  }
  if (make(at.fd, rel) != 0) return Errno(shown);
  return Status::Ok();
}

template <typename Make>
Status DestDir::CreateEntry(DirId parent, const std::string& name,
                            const Make& make) {
  SQL_RETURN_IF_ERROR(CheckOpen(parent));
  return CreateAt(Locate(parent, name), Show(parent, name), make);
}

StatusOr<DestDir::Location> DestDir::LocateNew(DirId parent,
                                               const std::string& name) const {
  SQL_RETURN_IF_ERROR(CheckOpen(parent));
  return Locate(parent, name);
}

StatusOr<int> DestDir::CreateFileAt(const Location& at,
                                    const std::string& shown,
                                    mode_t mode) const {
  int out = -1;
  SQL_RETURN_IF_ERROR(CreateAt(at, shown, [&](int fd, const char* rel) {
    out = openat(fd, rel, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                 mode);
    return out < 0 ? -1 : 0;
  }));
  return out;
}

StatusOr<int> DestDir::CreateFile(DirId parent, const std::string& name,
                                  mode_t mode) {
  SQL_ASSIGN_OR_RETURN(Location at, LocateNew(parent, name));
  return CreateFileAt(at, Show(parent, name), mode);
}

Status DestDir::MakeSymlink(DirId parent, const std::string& name,
                            const std::string& target) {
  return CreateEntry(parent, name, [&](int fd, const char* rel) {
    return symlinkat(target.c_str(), fd, rel);
  });
}

Status DestDir::MakeNode(DirId parent, const std::string& name, mode_t type,
                         mode_t perms, dev_t rdev) {
  return CreateEntry(parent, name, [&](int fd, const char* rel) {
    return mknodat(fd, rel, type | (perms & 0777), rdev);
  });
}

Status DestDir::MakeHardLink(DirId from_dir, const std::string& from_name,
                             DirId dir, const std::string& name) {
  SQL_RETURN_IF_ERROR(CheckOpen(from_dir));
  // Not a structured binding: clang before 16 (clang-14 here) cannot
  // capture one in a lambda.
  const Location from = Locate(from_dir, from_name);
  return CreateEntry(dir, name, [&](int fd, const char* rel) {
    return linkat(from.fd, from.rel.c_str(), fd, rel, 0);
  });
}

// lsetxattr does not follow the last component; /proc/self/fd/N stands for
// the anchor, whose descriptor is the only way to name it safely.
Status DestDir::SetXattrsByPath(int fd, const std::string& rel,
                                const std::string& shown,
                                const std::vector<Xattr>& xattrs) {
  if (xattrs.empty()) return Status::Ok();
  const std::string path = "/proc/self/fd/" + std::to_string(fd) + "/" + rel;
  for (const Xattr& x : xattrs) {
    if (lsetxattr(path.c_str(), x.name.c_str(), x.value.data(), x.value.size(),
                  0) != 0)
      Warn(shown + ": xattr " + x.name + " not set: " + std::strerror(errno));
  }
  return Status::Ok();
}

Status DestDir::SetByFd(int fd, const std::string& shown, bool chown,
                        bool chmod, const Attributes& a) {
  if (chown && fchown(fd, a.uid, a.gid) != 0) return Errno(shown);
  if (chmod && fchmod(fd, a.mode) != 0) return Errno(shown);
  for (const Xattr& x : a.xattrs) {
    if (fsetxattr(fd, x.name.c_str(), x.value.data(), x.value.size(), 0) != 0)
      Warn(shown + ": xattr " + x.name + " not set: " + std::strerror(errno));
  }
  const struct timespec times[2] = {{a.mtime, 0}, {a.mtime, 0}};
  if (futimens(fd, times) != 0) return Errno(shown);
  return Status::Ok();
}

Status DestDir::SetFileAttributes(int fd, const std::string& shown_path,
                                  bool chown, const Attributes& a) {
  // Created with its permission bits (umask 0); chown cleared set-id bits.
  return SetByFd(fd, shown_path, chown, (a.mode & 07000) != 0, a);
}

Status DestDir::SetAttributes(DirId parent, const std::string& name,
                              bool is_symlink, bool chown,
                              const Attributes& a) {
  SQL_RETURN_IF_ERROR(CheckOpen(parent));
  auto [fd, rel] = Locate(parent, name);
  if (chown &&
      fchownat(fd, rel.c_str(), a.uid, a.gid, AT_SYMLINK_NOFOLLOW) != 0)
    return Errno(Show(parent, name));
  // Made with its permission bits; chown cleared set-id bits. The parent may
  // be an anchor others can write to: never follow here.
  if (!is_symlink && (a.mode & 07000) != 0 &&
      fchmodat(fd, rel.c_str(), a.mode, AT_SYMLINK_NOFOLLOW) != 0)
    return Errno(Show(parent, name));
  SQL_RETURN_IF_ERROR(SetXattrsByPath(fd, rel, Show(parent, name), a.xattrs));
  const struct timespec times[2] = {{a.mtime, 0}, {a.mtime, 0}};
  if (utimensat(fd, rel.c_str(), times, AT_SYMLINK_NOFOLLOW) != 0)
    return Errno(Show(parent, name));
  return Status::Ok();
}

Status DestDir::FinishDir(DirId dir, const Attributes& a) {
  SQL_RETURN_IF_ERROR(CheckOpen(dir));
  Dir& d = dirs_[dir];
  d.finished = true;
  const std::string shown = Show(dir);
  if (d.fd >= 0) {
    const Status st = SetByFd(d.fd, shown, is_root(), true, a);
    if (dir != kDestRoot) {
      close(d.fd);
      d.fd = -1;
    }
    return st;
  }
  // Reached by path: its parent is protected, so the path still leads to it.
  const int fd = dirs_[d.anchor].fd;
  const char* rel = Rel(d.rel);
  if (is_root() && fchownat(fd, rel, a.uid, a.gid, AT_SYMLINK_NOFOLLOW) != 0)
    return Errno(shown);
  if (fchmodat(fd, rel, a.mode, 0) != 0) return Errno(shown);
  SQL_RETURN_IF_ERROR(SetXattrsByPath(fd, d.rel, shown, a.xattrs));
  const struct timespec times[2] = {{a.mtime, 0}, {a.mtime, 0}};
  if (utimensat(fd, rel, times, AT_SYMLINK_NOFOLLOW) != 0) return Errno(shown);
  return Status::Ok();
}

}  // namespace squashlab::cli
