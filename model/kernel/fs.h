// SPDX-License-Identifier: GPL-2.0-only
// This file implements the VFS types of include/linux/fs.h that the read
// path meets: struct inode, struct file with its readahead state, and
// address_space_operations — the seam through which the MM reads a file
// without knowing its file system (mapping->a_ops), and through which a file
// system's read path is reached. A file system installs its operations on
// each inode's mapping when it creates the inode.
#ifndef SQUASHLAB_MODEL_KERNEL_FS_H_
#define SQUASHLAB_MODEL_KERNEL_FS_H_

#include <cstdint>
#include <vector>

#include "model/kernel/filemap.h"

namespace squashlab {

struct page;
struct super_block;
struct file;

// The readahead state of an open file (3.13's include/linux/fs.h).
struct file_ra_state {
  unsigned long start = 0;
  unsigned int size = 0;
  unsigned int async_size = 0;
  unsigned int ra_pages = 32;  // 128K: VM_MAX_READAHEAD / PAGE_SIZE
  long long prev_pos = -1;
};

// One batch of a ->readahead call (include/linux/pagemap.h): the pages are
// in the page cache, locked, each with a reference the MM drops after the
// call; the file system must unlock every one.
struct readahead_control {
  struct file* file = nullptr;
  address_space* mapping = nullptr;
  std::vector<page*> pages;  // ascending index
};

// The operations of a mapping, in the kernel's shapes. Which ones a file
// system sets decides how the MM reads it: ->readpages (3.13: the pages
// are not in the cache yet; those left in the vector are released by the
// MM), else ->readahead (5.8+), else ->readpage page by page.
struct address_space_operations {
  int (*readpage)(file* filp, page* p) = nullptr;  // 6.x: read_folio
  int (*readpages)(file* filp, address_space* mapping,
                   std::vector<page*>* pages) = nullptr;
  void (*readahead)(readahead_control* rac) = nullptr;
};

struct inode {
  super_block* i_sb = nullptr;
  address_space* i_mapping = nullptr;
  uint64_t i_size = 0;
  unsigned long i_ino = 0;
  virtual ~inode() = default;  // file systems extend it (squashfs_inode_info)
};

inline uint64_t i_size_read(const inode* i) { return i->i_size; }
inline inode* mapping_host(address_space* m) { return m->host; }

struct file {
  inode* f_inode = nullptr;
  address_space* f_mapping = nullptr;
  file_ra_state f_ra;
  bool random = false;  // FMODE_RANDOM
};

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_KERNEL_FS_H_
