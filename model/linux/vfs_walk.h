// SPDX-License-Identifier: GPL-2.0-only
// This file implements the VFS calls a user's walk of a mounted real
// fs/squashfs makes beside reads: a directory listed through the real
// ->iterate_shared (getdents), one name looked up through ->lookup
// (open/stat), and an NFS server's file-handle lookups through the
// export operations (->fh_to_dentry, ->get_parent). Inodes are the
// header layer's C inodes, opaque here; their data is read through the
// model inode's page cache (LinuxModelInode) by the caller's MM.
#ifndef SQUASHLAB_MODEL_LINUX_VFS_WALK_H_
#define SQUASHLAB_MODEL_LINUX_VFS_WALK_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kabi {
struct inode;
struct super_block;
}  // namespace kabi

namespace squashlab {

struct inode;

struct LinuxDirent {
  std::string name;
  uint64_t ino = 0;
  unsigned type = 0;  // DT_*
};

// The root directory's inode of a mounted super_block.
kabi::inode* LinuxRootInode(kabi::super_block* sb);
// getdents of `dir` to its end or `max` entries ("." and ".." included as
// the file system emits them). Returns 0 or the negative errno
// ->iterate_shared returned.
int LinuxReadDir(kabi::inode* dir, size_t max, std::vector<LinuxDirent>* out);
// One getdents(2) call of an open directory whose f_pos is *pos
// (fs/readdir.c iterate_dir): ->iterate_shared with room for `room`
// entries (filldir refuses the one past it), then f_pos is where the
// context stopped. Returns 0 or the negative errno.
int LinuxGetdents(kabi::inode* dir, int64_t* pos, size_t room,
                  std::vector<LinuxDirent>* out);
// ->lookup of `name` in `dir`: the inode, or null with *err (-ENOENT for a
// negative dentry, the errno of an ERR_PTR).
kabi::inode* LinuxLookupIn(kabi::inode* dir, const std::string& name, int* err);
// listxattr(2) of `i` through its ->listxattr: the size asked first
// (a NULL buffer), then the names into a buffer of that size (at most
// `max` bytes). Returns 0 or the negative errno; -EOPNOTSUPP without the
// operation.
int LinuxListXattr(kabi::inode* i, size_t max, std::vector<std::string>* out);
// getxattr(2) of `name` on `i`: the handler of sb->s_xattr whose prefix
// starts the name (fs/xattr.c xattr_resolve_name; -EOPNOTSUPP if none),
// its ->get with the rest of the name, the size first, then the value
// (at most `max` bytes). Returns the value's size or the negative errno.
long LinuxGetXattr(kabi::inode* i, const std::string& name, size_t max,
                   std::string* value);
// Whether the mount has export operations (the image has an export table).
bool LinuxExportable(kabi::super_block* sb);
// ->fh_to_dentry of a FILEID_INO32_GEN handle for inode number `ino`, and
// ->get_parent of a directory: the inode, or null with *err.
kabi::inode* LinuxFhToInode(kabi::super_block* sb, uint32_t ino, int* err);
kabi::inode* LinuxGetParent(kabi::inode* dir, int* err);

// The inode's mode, number and size as the file system set them.
unsigned LinuxInodeMode(const kabi::inode* i);
uint64_t LinuxInodeNumber(const kabi::inode* i);
int64_t LinuxInodeSize(const kabi::inode* i);
// The model inode whose page cache reads through the inode's a_ops.
inode* LinuxModelInode(kabi::inode* i);

// Coverage: the functions of real kernel code that made a header-layer
// call (SL_AT) since enabled, by name (one set per process).
void LinuxCoverageEnable(bool on);
std::vector<std::string> LinuxFunctionsReached();
// A count that grows whenever a run reaches a function not reached before.
size_t LinuxCoverageSites();

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_LINUX_VFS_WALK_H_
