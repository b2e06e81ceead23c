// SPDX-License-Identifier: GPL-2.0-only
// This file implements the name operations of the VFS as tasks beside
// readers, for real kernel code (model/linux/vfs_walk.h): `ls`, getdents of
// directories through ->iterate_shared with several buffer sizes, each
// call resuming at the f_pos the last one left, then a seekdir back to a
// position a call returned and the rest listed again; and `namei`, paths
// looked up component by component through ->lookup (the directory index
// of squashfs_lookup), each symlink's target read as readlink reads it
// (fs/namei.c page_get_link: the link's page through the page cache and
// its ->read_folio), each inode's xattrs listed and read. Every answer is
// checked against the image's oracle (ImageModel::nodes): names, inode
// numbers and types, link targets, xattr names and values. An errno is a
// report unless a fault plan may have caused it.
#ifndef SQUASHLAB_HARNESS_NAMES_WORKLOAD_H_
#define SQUASHLAB_HARNESS_NAMES_WORKLOAD_H_

#include <cstddef>
#include <string>
#include <vector>

namespace kabi {
struct super_block;
}  // namespace kabi

namespace squashlab {

class Kernel;
struct ImageModel;
struct NodeModel;

// The nodes the name tasks visit, chosen once per image: the root and the
// directories with the most entries, every symlink and every inode with
// xattrs up to a few of each, and the deepest path.
struct NamesChoice {
  std::vector<const NodeModel*> dirs;
  std::vector<const NodeModel*> paths;
};
NamesChoice ChooseNames(const ImageModel& image);

// ls: each directory of `choice.dirs` listed with getdents of `rooms[i %
// rooms.size()]` entries a call (at most `max_entries` of it checked),
// then from a middle position again.
void spawn_ls(Kernel& k, kabi::super_block* sb, const NamesChoice& choice,
              const std::string& comm, std::vector<size_t> rooms,
              size_t max_entries, bool eio_allowed);
// namei: each path of `choice.paths` looked up from the root, checked,
// its link read and its xattrs listed and read; one absent name too.
void spawn_namei(Kernel& k, kabi::super_block* sb, const NamesChoice& choice,
                 const std::string& comm, bool eio_allowed);

}  // namespace squashlab

#endif  // SQUASHLAB_HARNESS_NAMES_WORKLOAD_H_
