// SPDX-License-Identifier: GPL-2.0-only
// This file implements struct buffer_head and the buffer cache: sb_getblk
// (one buffer_head per block number, shared), get_bh / put_bh / brelse, the
// buffer lock, the uptodate bit, ll_rw_block(READ|READA), submit_bh,
// end_buffer_read_sync and the b_end_io / b_private completion hooks.
#ifndef SQUASHLAB_MODEL_KERNEL_BUFFER_HEAD_H_
#define SQUASHLAB_MODEL_KERNEL_BUFFER_HEAD_H_

#include <atomic>
#include <cstdint>
#include <string>

#include "model/kernel/bio.h"
#include "model/kernel/block_device.h"

namespace squashlab {

struct page;
struct buffer_head;

enum bh_state_bits {
  BH_Uptodate = 0,
  BH_Dirty = 1,
  BH_Lock = 2,
  BH_Req = 3,
  BH_Mapped = 5,
};

using bh_end_io_t = void(buffer_head* bh, int uptodate);

struct buffer_head {
  std::atomic<unsigned long> b_state{0};
  page* b_page = nullptr;
  sector_t b_blocknr = 0;
  size_t b_size = 0;
  char* b_data = nullptr;  // b_size bytes
  block_device* b_bdev = nullptr;
  bh_end_io_t* b_end_io = nullptr;  // plain fields, as in the kernel:
  void* b_private = nullptr;        // races on them are the variant's
  std::atomic<int> b_count{0};
  bool in_io = false;  // submitted, completion not yet run
  bool freed = false;  // freed by try_to_free_buffers (reclaim)
};

std::string dump_buffer(const buffer_head* bh);

// The buffer_head of block `block` (count + 1); the same one for every
// caller until reclaim frees it (try_to_free_buffers). As fs/buffer.c, the
// lookup goes through this CPU's bh LRU (bh_lru.h), which keeps a
// reference of its own. Never NULL.
buffer_head* sb_getblk(super_block* sb, sector_t block);
buffer_head* __getblk(block_device* bdev, sector_t block, unsigned size);
// getblk + read + wait: an uptodate buffer, or NULL on I/O error.
buffer_head* sb_bread(super_block* sb, sector_t block);

void get_bh(buffer_head* bh);
// put_bh is a silent atomic_dec (the count may go below 0, as in the
// kernel); __brelse / brelse warn "VFS: brelse: Trying to free free
// buffer" when the count is already 0.
void put_bh(buffer_head* bh);
void brelse(buffer_head* bh);
void __brelse(buffer_head* bh);

void lock_buffer(buffer_head* bh);  // may sleep
int trylock_buffer(buffer_head* bh);
void unlock_buffer(buffer_head* bh);   // reports if not locked
void wait_on_buffer(buffer_head* bh);  // may sleep

int buffer_uptodate(buffer_head* bh);
void set_buffer_uptodate(buffer_head* bh);
void clear_buffer_uptodate(buffer_head* bh);
int buffer_locked(const buffer_head* bh);
int buffer_req(buffer_head* bh);
int buffer_mapped(buffer_head* bh);

// Reclaim of the block device's page cache: every buffer_head that is
// unreferenced, unlocked, clean and idle is freed (try_to_free_buffers);
// the next __getblk of its block makes a new one. Returns how many.
unsigned long shrink_buffer_heads();

// REQUIRES: bh locked, mapped, b_end_io set. Completion calls
// bh->b_end_io(bh, uptodate) in interrupt context.
int submit_bh(int rw, buffer_head* bh);
// For each bh: trylock; if not uptodate, submit with end_buffer_read_sync.
void ll_rw_block(int rw, int nr, buffer_head* bhs[]);
void end_buffer_read_sync(buffer_head* bh, int uptodate);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_KERNEL_BUFFER_HEAD_H_
