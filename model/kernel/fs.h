// SPDX-License-Identifier: GPL-2.0-only
// This file implements the VFS types of include/linux/fs.h that the read
// path meets: struct inode, struct file with its readahead state, and
// address_space_operations — the seam through which the MM reads a file
// without knowing its file system (mapping->a_ops), and through which a file
// system's read path is reached. A file system installs its operations on
// each inode's mapping when it creates the inode.
#ifndef SQUASHLAB_MODEL_KERNEL_FS_H_
#define SQUASHLAB_MODEL_KERNEL_FS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/kernel/filemap.h"

namespace squashlab {

struct page;
struct super_block;
struct file;

// The readahead state of an open file (include/linux/fs.h; the same fields
// in 3.13 and 6.x).
struct file_ra_state {
  unsigned long start = 0;
  unsigned int size = 0;
  unsigned int async_size = 0;
  unsigned int ra_pages = 32;  // 128K: VM_MAX_READAHEAD / PAGE_SIZE
  long long prev_pos = -1;
  // Page faults that found no page (mm/filemap.c do_sync_mmap_readahead,
  // filemap_map_pages): past MMAP_LOTSAMISS a mapping stops reading around.
  unsigned int mmap_miss = 0;
  // Not the kernel's field but its backing device's bdi->io_pages (the
  // queue's max_sectors in pages), which 6.x lets an oversized read's window
  // grow to. A RAM disk (brd) keeps the block layer's safe default of 255
  // sectors: 31 pages, below ra_pages, so it never matters there.
  unsigned int io_pages = 31;
};

// One batch of a ->readahead call (include/linux/pagemap.h): the pages are
// contiguous, in the page cache and locked, each with a reference of the MM.
// The file system takes a page by removing it from `pages` (its reference
// passes with it, as __readahead_batch hands it over) and must unlock every
// page it takes; the pages still in `pages` when the call returns were not
// read, and the MM unlocks and releases them (read_pages). `ra` is the
// file's window, which 6.x's readahead_expand grows.
struct readahead_control {
  struct file* file = nullptr;
  address_space* mapping = nullptr;
  std::vector<page*> pages;  // ascending index
  file_ra_state* ra = nullptr;
};

// mm/readahead.c's readahead_expand (5.12+), for a file system that wants
// whole blocks: grows the batch downwards to new_start's page, then upwards
// to cover new_len bytes, with new pages added to the cache locked (the MM's
// reference in `pages`, like the others), stopping at the first index
// already cached; each page added at the end also grows rac->ra.
void readahead_expand(readahead_control* rac, uint64_t new_start,
                      size_t new_len);

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
