// SPDX-License-Identifier: GPL-2.0-only
// This file implements squashfs_fill_super and squashfs_iget for the model.
#include "model/variants/super.h"

#include <algorithm>

#include "model/kernel/filemap.h"
#include "model/kernel/kernel.h"
#include "model/variants/cache.h"
#include "model/variants/decompressor.h"
#include "model/variants/read_path.h"

namespace squashlab {

void squashfs_fill_super(super_block* sb, squashfs_sb_info* msblk,
                         const squashfs_super_facts& facts,
                         const ReadPathOps* read_path,
                         const SquashfsDecompressorOps* decomp) {
  // sb_min_blocksize(sb, SQUASHFS_DEVBLK_SIZE): never below the device's
  // logical block size (a 4K-sector device reads in 4K buffers).
  unsigned devblk =
      std::max<unsigned>(SQUASHFS_DEVBLK_SIZE, sb->s_bdev->logical_block_size);
  unsigned char bits = 0;
  while ((1u << bits) < devblk) bits++;
  sb->s_blocksize = devblk;
  sb->s_blocksize_bits = bits;
  sb->s_fs_info = msblk;

  msblk->devblksize = static_cast<int>(devblk);
  msblk->devblksize_log2 = bits;
  msblk->block_size = static_cast<int>(facts.block_size);
  msblk->block_log = 0;
  while ((1 << msblk->block_log) < msblk->block_size) msblk->block_log++;
  msblk->bytes_used = facts.bytes_used;
  msblk->compression = facts.compression;
  msblk->read_path = read_path;
  msblk->aops = squashfs_aops(read_path);
  msblk->thread_ops = decomp;
  msblk->fragment_cache = squashfs_cache_init(
      "fragment", SQUASHFS_CACHED_FRAGMENTS, msblk->block_size);
  msblk->read_page = squashfs_cache_init("data", 1, msblk->block_size);
  decomp->create(msblk);
}

inode* squashfs_iget(super_block* sb, const FileLayout& layout,
                     const std::string& path, unsigned long ino_nr) {
  auto* ino = Kernel::Current().New<squashfs_inode_info>();
  ino->i_sb = sb;
  ino->i_ino = ino_nr;
  ino->i_size = layout.file_size;
  for (const StoredBlock& b : layout.blocks) {
    ino->block_start.push_back(b.start);
    ino->block_size_word.push_back(
        b.stored_size == 0
            ? 0
            : (b.stored_size |
               (b.compressed ? 0 : SQUASHFS_COMPRESSED_BIT_BLOCK)));
  }
  if (layout.has_tail) {
    ino->fragment_block = layout.fragment.start;
    ino->fragment_size =
        layout.fragment.stored_size |
        (layout.fragment.compressed ? 0 : SQUASHFS_COMPRESSED_BIT_BLOCK);
    ino->fragment_offset = layout.tail_offset;
  }
  ino->i_mapping = new_address_space(path);
  ino->i_mapping->host = ino;
  ino->i_mapping->a_ops = &SQUASHFS_SB(sb)->aops;
  return ino;
}

}  // namespace squashlab
