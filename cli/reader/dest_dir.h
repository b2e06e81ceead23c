// SPDX-License-Identifier: GPL-2.0-only
// This file implements DestDir: every file-system change `extract` makes,
// below the destination directory, never following a symlink planted there
// and never leaving the destination.
//
// Directories are addressed by DirId. A path is resolved from an "anchor", a
// directory this class holds open: the destination, and any directory whose
// parent other users may change. A directory is "protected" when only this
// process's user (or root) may change its entries: owned by either, no group
// or other write bit. Every directory DestDir creates is mode 0700 until
// FinishDir, so it is protected; below a protected directory no other user
// can rename an entry or swap it for a symlink, and a relative path from the
// nearest anchor reaches it without opening it. In the usual case (a new or
// private destination) no directory is opened at all: one openat per file.
#ifndef SQUASHLAB_CLI_READER_DEST_DIR_H_
#define SQUASHLAB_CLI_READER_DEST_DIR_H_

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "reader/status.h"
#include "reader/xattr_table.h"

namespace squashlab::cli {

// An image path below the root, as components: "/a/b" -> {"a", "b"}.
using RelPath = std::vector<std::string>;
RelPath SplitImagePath(const std::string& image_path);

struct Attributes {
  mode_t mode = 0;  // permission bits incl. setuid/setgid/sticky
  uint32_t uid = 0;
  uint32_t gid = 0;
  int64_t mtime = 0;
  std::vector<Xattr> xattrs;
};

// A directory of the destination; kDestRoot is the destination itself.
using DirId = uint32_t;
inline constexpr DirId kDestRoot = 0;

// Thread-compatible, except CreateFileAt and SetFileAttributes (see there).
// Every `name` must be a safe name: non-empty, no '/', not "." or ".." (the
// reader checks).
class DestDir {
 public:
  // Creates `path` if missing (its parent must exist), then opens it. With
  // `overwrite` false, any entry that already exists where the image puts
  // one is an error; with true, existing directories are reused and other
  // entries replaced (a directory never; a symlink is never crossed).
  static StatusOr<std::unique_ptr<DestDir>> Open(const std::string& path,
                                                 bool overwrite);
  ~DestDir();
  DestDir(const DestDir&) = delete;
  DestDir& operator=(const DestDir&) = delete;

  // REQUIRES for each call taking a parent: FinishDir(parent) not yet called.
  StatusOr<DirId> MakeDir(DirId parent, const std::string& name);
  // Creates a regular file with `mode` and returns its descriptor.
  // REQUIRES: the process umask is 0.
  StatusOr<int> CreateFile(DirId parent, const std::string& name, mode_t mode);
  // The same in two steps, so that another thread may create the file:
  // where it goes (an anchor's descriptor and a path from it), then, on any
  // thread, creating it. The location stays valid until FinishDir(parent).
  struct Location {
    int fd;
    std::string rel;
  };
  StatusOr<Location> LocateNew(DirId parent, const std::string& name) const;
  StatusOr<int> CreateFileAt(const Location& at, const std::string& shown,
                             mode_t mode) const;
  Status MakeSymlink(DirId parent, const std::string& name,
                     const std::string& target);
  // A fifo, socket, device node or empty regular file, with permission
  // bits `perms` (set-id bits are for SetAttributes).
  Status MakeNode(DirId parent, const std::string& name, mode_t type,
                  mode_t perms, dev_t rdev);
  Status MakeHardLink(DirId from_dir, const std::string& from_name, DirId dir,
                      const std::string& name);
  // Owner (when `chown`, see NeedsChown), set-id bits (not for symlinks),
  // xattrs, then mtime, of what MakeSymlink or MakeNode made.
  Status SetAttributes(DirId parent, const std::string& name, bool is_symlink,
                       bool chown, const Attributes& a);
  // The same for a directory; after it nothing may be created in `dir`
  // (its final mode may forbid it, or let other users in).
  Status FinishDir(DirId dir, const Attributes& a);
  // The same for a regular file through its descriptor only; `chown` from
  // NeedsChown. Thread-safe: touches no other state than the warning list.
  Status SetFileAttributes(int fd, const std::string& shown_path, bool chown,
                           const Attributes& a);
  // Whether an entry created in `parent` needs chown to get a's owner.
  bool NeedsChown(DirId parent, const Attributes& a) const;

  bool is_root() const { return euid_ == 0; }
  const std::string& path() const { return path_; }
  // "DEST/a/b/name", for messages.
  std::string Show(DirId dir, const std::string& name = "") const;
  // Directories this class holds open now (for tests of the fd bound).
  size_t open_anchors() const;
  // Warnings about things skipped (xattrs the file system refused, ...).
  std::vector<std::string> warnings() const;

 private:
  struct Dir {
    DirId parent = kDestRoot;
    std::string name;
    DirId anchor = kDestRoot;  // this directory when fd >= 0
    std::string rel;           // path from the anchor; "" for the anchor itself
    int fd = -1;
    bool is_protected = false;
    bool fresh = false;  // created here: new entries get this process's owner
    bool finished = false;
  };
  DestDir(std::string path, bool overwrite)
      : path_(std::move(path)), overwrite_(overwrite) {}
  // The descriptor and relative path through which `name` in `parent` is
  // reached.
  Location Locate(DirId parent, const std::string& name) const;
  Status CheckOpen(DirId parent) const;
  Status AddAnchor(Dir d, int fd, bool expect_fresh);
  // Runs make(fd, path); when the name is taken: an error, or with
  // overwrite a non-directory is removed and make runs once more.
  template <typename Make>
  Status CreateAt(const Location& at, const std::string& shown,
                  const Make& make) const;
  template <typename Make>
  Status CreateEntry(DirId parent, const std::string& name, const Make& make);
  // Owner, mode, xattrs and mtime through a descriptor.
  Status SetByFd(int fd, const std::string& shown, bool chown, bool chmod,
                 const Attributes& a);
  Status SetXattrsByPath(int fd, const std::string& rel,
                         const std::string& shown,
                         const std::vector<Xattr>& xattrs);
  void Warn(const std::string& w) const;

  std::string path_;
  bool overwrite_;
  uid_t euid_ = 0;
  gid_t egid_ = 0;
  std::vector<Dir> dirs_;
  mutable std::mutex warnings_mu_;
  mutable std::vector<std::string> warnings_;
};

}  // namespace squashlab::cli

#endif  // SQUASHLAB_CLI_READER_DEST_DIR_H_
