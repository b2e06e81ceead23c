// SPDX-License-Identifier: GPL-2.0-only
// This file implements squashfs_cache (fs/squashfs/cache.c): a small set of
// block-sized entries shared by all readers — the fragment cache and, in
// FILE_CACHE, the data-block cache. A reader of a block being filled by
// another sleeps on the entry; a reader finding every entry in use sleeps
// on the cache. squashfs_cache_get returns a referenced entry whose error
// field says whether the read failed; squashfs_cache_put drops it.
#ifndef SQUASHLAB_MODEL_VARIANTS_CACHE_H_
#define SQUASHLAB_MODEL_VARIANTS_CACHE_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "model/kernel/mutex.h"
#include "model/kernel/wait_queue.h"
#include "model/variants/squashfs.h"

namespace squashlab {

struct squashfs_page_actor;

struct squashfs_cache_entry {
  uint64_t block = SQUASHFS_INVALID_BLK;
  int length = 0;
  int refcount = 0;
  uint64_t next_index = 0;
  std::atomic<int> pending{0};  // read by wait_event without the lock
  int error = 0;
  int num_waiters = 0;
  wait_queue_head_t wait_queue;
  struct squashfs_cache* cache = nullptr;
  std::vector<std::vector<char>> pages;  // PAGE_SIZE each
  std::vector<void*> data;               // pointers into pages
};

struct squashfs_cache {
  const char* name = "";
  int entries = 0;
  int curr_blk = 0;
  int next_blk = 0;
  int num_waiters = 0;
  std::atomic<int> unused{0};  // read by wait_event without the lock
  int block_size = 0;
  int pages = 0;
  mutex lock;  // a spinlock_t in the kernel; see cache.cc
  wait_queue_head_t wait_queue;
  std::vector<std::unique_ptr<squashfs_cache_entry>> entry;
};

// Run-owned (Kernel::New); nothing to destroy.
squashfs_cache* squashfs_cache_init(const char* name, int entries,
                                    int block_size);
squashfs_cache_entry* squashfs_cache_get(super_block* sb, squashfs_cache* cache,
                                         uint64_t block, int length);
void squashfs_cache_put(squashfs_cache_entry* entry);
// Copies `length` bytes at `offset` of the entry to buffer (or zeroes when
// entry is NULL); returns the count.
int squashfs_copy_data(void* buffer, squashfs_cache_entry* entry, int offset,
                       int length);

squashfs_cache_entry* squashfs_get_fragment(super_block* sb,
                                            uint64_t start_block, int length);
squashfs_cache_entry* squashfs_get_datablock(super_block* sb,
                                             uint64_t start_block, int length);

// block.c: the synchronous read of one block into an actor (ll_rw_block +
// wait_on_buffer + squashfs_decompress). Returns the decoded length or -EIO.
int squashfs_read_data(super_block* sb, uint64_t index, int length,
                       uint64_t* next_index, squashfs_page_actor* output);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_VARIANTS_CACHE_H_
