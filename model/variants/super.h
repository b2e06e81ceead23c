// SPDX-License-Identifier: GPL-2.0-only
// This file implements the mount-time half of fs/squashfs/super.c and
// inode.c for the model: squashfs_fill_super sets up squashfs_sb_info (the
// read path and decompressor strategy chosen, the fragment and data caches,
// the strategy's streams) on a super_block whose device is already set, and
// squashfs_iget creates a regular file's inode with its block list and
// installs the variant's address_space_operations on its mapping.
#ifndef SQUASHLAB_MODEL_VARIANTS_SUPER_H_
#define SQUASHLAB_MODEL_VARIANTS_SUPER_H_

#include <cstdint>
#include <string>

#include "model/kernel/block_device.h"
#include "model/variants/squashfs.h"
#include "reader/file_layout.h"
#include "reader/superblock.h"

namespace squashlab {

struct ReadPathOps;
struct SquashfsDecompressorOps;

// The on-disk superblock's facts the read path uses (the kernel reads them
// from the device; the model gets them from the reader's decoding).
struct squashfs_super_facts {
  uint32_t block_size = 0;
  uint64_t bytes_used = 0;
  CompressorId compression = CompressorId::kGzip;
};

// REQUIRES: sb->s_bdev set; inside a Kernel's setup. `msblk` outlives sb.
void squashfs_fill_super(super_block* sb, squashfs_sb_info* msblk,
                         const squashfs_super_facts& facts,
                         const ReadPathOps* read_path,
                         const SquashfsDecompressorOps* decomp);
// A run-owned inode for the file at `path` (from the root) laid out as
// `layout`, with a new mapping whose a_ops are the read path's
// (squashfs_aops).
inode* squashfs_iget(super_block* sb, const FileLayout& layout,
                     const std::string& path, unsigned long ino_nr);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_VARIANTS_SUPER_H_
