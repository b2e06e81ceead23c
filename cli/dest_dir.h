// This file implements DestDir: every file-system change `extract` makes,
// relative to the destination directory, never following a symlink and never
// leaving the destination.
#ifndef SQUASHLAB_CLI_DEST_DIR_H_
#define SQUASHLAB_CLI_DEST_DIR_H_

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
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

// Thread-compatible.
class DestDir {
 public:
  // Creates `path` if missing (its parent must exist), then opens it.
  static StatusOr<DestDir> Open(const std::string& path);
  DestDir(DestDir&& o) noexcept;
  DestDir& operator=(DestDir&&) = delete;
  ~DestDir();

  // Each REQUIRES: every name in `rel` is a safe name (the reader checks).
  Status MakeDir(const RelPath& rel);  // an existing directory is fine
  // Creates (replacing a non-directory) a regular file with `mode`; returns
  // its fd. REQUIRES: the process umask is 0 (see ScopedUmask).
  StatusOr<int> CreateFile(const RelPath& rel, mode_t mode);
  Status MakeSymlink(const RelPath& rel, const std::string& target);
  Status MakeNode(const RelPath& rel, mode_t type, dev_t rdev);  // fifo, socket, device
  Status MakeHardLink(const RelPath& existing, const RelPath& rel);
  // Owner (when root), mode (not for symlinks), xattrs, then mtime, by path
  // (directories, symlinks, special files).
  Status SetAttributes(const RelPath& rel, bool is_symlink, const Attributes& a);
  // The same for a regular file through its open descriptor only: touches no
  // other DestDir state, so worker threads may call it concurrently.
  Status SetFileAttributes(int fd, const RelPath& rel, const Attributes& a);

  bool is_root() const { return is_root_; }
  const std::string& path() const { return path_; }
  // Warnings about things skipped (xattrs the file system refused, ...).
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  DestDir(std::string path, int fd, bool is_root) : path_(std::move(path)), fd_(fd), is_root_(is_root) {}
  // Opens the parent directory of rel, component by component, refusing
  // symlinks; the last one is cached for siblings.
  StatusOr<int> Parent(const RelPath& rel);
  Status RemoveIfNotDir(int parent, const std::string& name);
  Status CreateReplacing(const RelPath& rel, const std::function<int(int, const char*)>& make);
  std::string Show(const RelPath& rel) const;
  void Warn(const std::string& w);

  std::string path_;
  int fd_ = -1;
  bool is_root_ = false;
  RelPath cached_parent_;
  int cached_fd_ = -1;
  std::mutex warnings_mu_;
  std::vector<std::string> warnings_;
};

}  // namespace squashlab::cli

#endif  // SQUASHLAB_CLI_DEST_DIR_H_
