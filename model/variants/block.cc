// SPDX-License-Identifier: GPL-2.0-only
// This file implements squashfs_read_data as 3.13's block.c does for data
// blocks: get the buffer heads covering the block, ll_rw_block(READ) them,
// wait_on_buffer each, then decompress (or copy, for an uncompressed block)
// into the actor.
#include <algorithm>
#include <cstring>

#include "model/kernel/bio.h"
#include "model/kernel/buffer_head.h"
#include "model/kernel/kernel.h"
#include "model/kernel/page.h"
#include "model/kernel/slab.h"
#include "model/variants/cache.h"
#include "model/variants/decompressor.h"
#include "model/variants/page_actor.h"

namespace squashlab {

int squashfs_read_data(super_block* sb, uint64_t index, int length,
                       uint64_t* next_index, squashfs_page_actor* output) {
  squashfs_sb_info* msblk = SQUASHFS_SB(sb);
  int offset = static_cast<int>(index & ((1u << msblk->devblksize_log2) - 1));
  uint64_t cur_index = index >> msblk->devblksize_log2;
  int bytes, compressed, b = 0, k = 0, avail, i;

  auto** bh = static_cast<buffer_head**>(kcalloc(
      ((output->length + msblk->devblksize - 1) >> msblk->devblksize_log2) + 1,
      sizeof(buffer_head*), GFP_KERNEL));
  if (length == 0) goto read_failure;  // metadata blocks are not modelled

  bytes = -offset;
  compressed = SQUASHFS_COMPRESSED_BLOCK(static_cast<uint32_t>(length));
  length = SQUASHFS_COMPRESSED_SIZE_BLOCK(static_cast<uint32_t>(length));
  if (next_index) *next_index = index + static_cast<uint64_t>(length);
  if (length < 0 || length > output->length ||
      index + static_cast<uint64_t>(length) > msblk->bytes_used)
    goto read_failure;

  for (b = 0; bytes < length; b++, cur_index++) {
    bh[b] = sb_getblk(sb, cur_index);
    bytes += msblk->devblksize;
  }
  ll_rw_block(READ, b, bh);

  for (i = 0; i < b; i++) {
    wait_on_buffer(bh[i]);
    if (!buffer_uptodate(bh[i])) goto block_release;
  }

  if (compressed) {
    length = squashfs_decompress(msblk, bh, b, offset, length, output);
    if (length < 0) goto read_failure;
  } else {
    // Block is uncompressed.
    int in, pg_offset = 0;
    char* data = static_cast<char*>(squashfs_first_page(output));
    for (bytes = length; k < b; k++) {
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
    model_charge(CostKind::kMemcpyByte, static_cast<uint64_t>(length));
  }
  kfree(bh);
  return length;

block_release:
  for (; k < b; k++) put_bh(bh[k]);
read_failure:
  kfree(bh);
  return -EIO;
}

}  // namespace squashlab
