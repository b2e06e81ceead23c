// SPDX-License-Identifier: GPL-2.0-only
// This file implements the block.c half of the 2013 asynchronous readpage
// patch (the 2013 thread), ported line by line, bugs included:
// squashfs_read_data_async, squashfs_ll_r_block, squashfs_buffer_end_io,
// the work item and squashfs_buffer_read_async. Like every variant it is
// compiled as a KASAN kernel is: each load and store of the patch's
// kmalloc'd structures is checked without a word in the code.
#include <algorithm>
#include <atomic>
#include <cstring>

#include "model/kernel/bio.h"
#include "model/kernel/buffer_head.h"
#include "model/kernel/kernel.h"
#include "model/kernel/page.h"
#include "model/kernel/slab.h"
#include "model/kernel/workqueue.h"
#include "model/variants/decompressor.h"
#include "model/variants/file_direct.h"
#include "model/variants/page_actor.h"

namespace squashlab {
namespace {

struct squashfs_end_io_assoc {
  int offset;
  int b_count;
  int compressed;
  int length;
  squashfs_page_actor* p_actor;
  buffer_head** __bh;
  squashfs_sb_info* msblk;
  work_struct read_work;
};

int squashfs_copy_page(squashfs_sb_info* msblk, buffer_head** bh, int b,
                       int offset, int length, squashfs_page_actor* output) {
  // Block is uncompressed.
  int in, pg_offset = 0, avail = 0, bytes, k = 0;
  char* data = static_cast<char*>(squashfs_first_page(output));
  for (bytes = length; k < b; k++) {
    Kernel::Current().CheckPtr(bh[k], "squashfs_copy_page");
    in = std::min(bytes, msblk->devblksize - offset);
    bytes -= in;
    while (in) {
      if (pg_offset == static_cast<int>(PAGE_CACHE_SIZE)) {
        data = static_cast<char*>(squashfs_next_page(output));
        pg_offset = 0;
      }
      avail = std::min(in, static_cast<int>(PAGE_CACHE_SIZE) - pg_offset);
      std::memcpy(data + pg_offset, bh[k]->b_data + offset,
                  static_cast<size_t>(avail));
      in -= avail;
      pg_offset += avail;
      offset += avail;
    }
    offset = 0;
    put_bh(bh[k]);
  }
  squashfs_finish_page(output);
  return length;
}

// Executed in the workqueue (or directly by squashfs_ll_r_block): pages
// come decompressed/copied and unlocked asynchronously.
void squashfs_buffer_read_async(squashfs_end_io_assoc* io_assoc) {
  squashfs_sb_info* msblk = io_assoc->msblk;
  squashfs_page_actor* actor = io_assoc->p_actor;
  page** page = actor->page;
  int pages = actor->pages;
  struct page* target_page = actor->target_page;
  int i, length, bytes = 0;

  if (io_assoc->compressed) {
    length = squashfs_decompress(msblk, io_assoc->__bh, io_assoc->b_count,
                                 io_assoc->offset, io_assoc->length, actor);
    if (length < 0) goto read_failure;
  } else {
    length = squashfs_copy_page(msblk, io_assoc->__bh, io_assoc->b_count,
                                io_assoc->offset, io_assoc->length, actor);
  }

  // Last page may have trailing bytes not filled.
  bytes = length % static_cast<int>(PAGE_CACHE_SIZE);
  if (bytes) {
    char* pageaddr = static_cast<char*>(kmap_atomic(page[pages - 1]));
    std::memset(pageaddr + bytes, 0,
                PAGE_CACHE_SIZE - static_cast<size_t>(bytes));
    kunmap_atomic(pageaddr);
  }

  // Mark pages as uptodate, unlock and release.
  for (i = 0; i < pages; i++) {
    flush_dcache_page(page[i]);
    SetPageUptodate(page[i]);
    unlock_page(page[i]);
    if (page[i] != target_page) page_cache_release(page[i]);
  }
  kfree(io_assoc->__bh);
  kfree(actor);
  kfree(page);
  kfree(io_assoc);
  return;

read_failure:
  // Decompression failed, mark pages as errored. Target_page is dealt with
  // by the caller.
  for (i = 0; i < pages; i++) {
    if (page[i] == nullptr || page[i] == target_page) continue;
    flush_dcache_page(page[i]);
    SetPageError(page[i]);
    unlock_page(page[i]);
    page_cache_release(page[i]);
  }
  kfree(io_assoc->__bh);
  kfree(actor);
  kfree(page);
  kfree(io_assoc);
}

void squashfs_async_work(work_struct* work) {
  auto* io_assoc = reinterpret_cast<squashfs_end_io_assoc*>(
      reinterpret_cast<char*>(work) -
      offsetof(squashfs_end_io_assoc, read_work));
  squashfs_buffer_read_async(io_assoc);
}

// Updates the buffer; when every buffer of the array is uptodate, invokes
// the work item for the decompression.
void squashfs_buffer_end_io(buffer_head* bh, int uptodate) {
  auto* io_assoc = static_cast<squashfs_end_io_assoc*>(bh->b_private);
  if (uptodate) {
    set_buffer_uptodate(bh);
  } else {
    // This happens, due to failed READA attempts.
    clear_buffer_uptodate(bh);
  }
  unlock_buffer(bh);
  put_bh(bh);

  BUG_ON(!io_assoc);

  // Check if all buffers are uptodate.
  for (int i = 0; i < io_assoc->b_count; i++)
    if (!buffer_uptodate(io_assoc->__bh[i])) return;

  schedule_work(&io_assoc->read_work);
}

// Low-level access to block devices for squashfs: sets b_end_io to the
// squashfs completion handler, which marks the buffer uptodate and invokes
// the workqueue for decompression and page updates.
void squashfs_ll_r_block(int nr, buffer_head* bhs[]) {
  int i, s_nr = 0;
  squashfs_end_io_assoc* io_assoc = nullptr;

  for (i = 0; i < nr; i++) {
    buffer_head* bh = bhs[i];
    // A NULL or stale bh oopses here in the kernel, KASAN or not.
    Kernel::Current().CheckPtr(bh, "squashfs_ll_r_block");
    io_assoc = static_cast<squashfs_end_io_assoc*>(bh->b_private);
    if (!trylock_buffer(bh)) continue;
    if (!buffer_uptodate(bh)) {
      bh->b_end_io = squashfs_buffer_end_io;
      get_bh(bh);
      s_nr++;
      submit_bh(READ, bh);
      continue;
    }
    unlock_buffer(bh);
  }
  // All buffers are uptodate, but no submit_bh occurred: unlock the pages
  // directly.
  if (nr && !s_nr && io_assoc) squashfs_buffer_read_async(io_assoc);
}

}  // namespace

int squashfs_read_data_async(super_block* sb, uint64_t index, int length,
                             squashfs_page_actor* output) {
  squashfs_sb_info* msblk = SQUASHFS_SB(sb);
  int offset = static_cast<int>(index & ((1u << msblk->devblksize_log2) - 1));
  uint64_t cur_index = index >> msblk->devblksize_log2;
  int bytes, compressed, b = 0;
  squashfs_end_io_assoc* io_assoc;

  auto** bh = static_cast<buffer_head**>(kcalloc(
      ((output->length + msblk->devblksize - 1) >> msblk->devblksize_log2) + 1,
      sizeof(buffer_head*), GFP_KERNEL));
  if (!length) return -EINVAL;  // (the patch leaks bh here)

  bytes = -offset;
  compressed = SQUASHFS_COMPRESSED_BLOCK(static_cast<uint32_t>(length));
  length = SQUASHFS_COMPRESSED_SIZE_BLOCK(static_cast<uint32_t>(length));
  if (length < 0 || length > output->length ||
      index + static_cast<uint64_t>(length) > msblk->bytes_used)
    goto read_failure;

  io_assoc = static_cast<squashfs_end_io_assoc*>(
      kmalloc(sizeof(squashfs_end_io_assoc), GFP_KERNEL));
  io_assoc->offset = offset;
  io_assoc->p_actor = output;
  io_assoc->compressed = compressed;
  io_assoc->__bh = bh;
  io_assoc->length = length;
  io_assoc->msblk = msblk;
  INIT_WORK(&io_assoc->read_work, squashfs_async_work);

  for (b = 0; bytes < length; b++, cur_index++) {
    bh[b] = sb_getblk(sb, cur_index);
    bytes += msblk->devblksize;
    if (!buffer_locked(bh[b])) bh[b]->b_private = io_assoc;
  }
  io_assoc->b_count = b;

  // make sure io_assoc is updated before submit IO (mb(); a compiler
  // barrier here: the submission itself publishes to the device's thread,
  // and a real fence would hide the patch's unordered readers from TSan)
  asm volatile("" ::: "memory");
  squashfs_ll_r_block(b, bh);
  return length;

read_failure:
  kfree(bh);
  return -EIO;
}

}  // namespace squashlab
