// SPDX-License-Identifier: GPL-2.0-only
// This file implements the SquashFS in-kernel state the read-path variants
// share, in the kernel's names: squashfs_sb_info (msblk), squashfs_inode_info
// (a regular file's block list and fragment around the VFS inode), and the
// on-disk size-word macros of squashfs_fs.h.
#ifndef SQUASHLAB_MODEL_VARIANTS_SQUASHFS_H_
#define SQUASHLAB_MODEL_VARIANTS_SQUASHFS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "model/kernel/block_device.h"
#include "model/kernel/filemap.h"
#include "model/kernel/fs.h"
#include "reader/superblock.h"

namespace squashlab {

struct ReadPathOps;
struct SquashfsDecompressorOps;
struct squashfs_cache;
struct page;

inline constexpr uint32_t SQUASHFS_COMPRESSED_BIT_BLOCK = 1u << 24;
inline bool SQUASHFS_COMPRESSED_BLOCK(uint32_t b) {
  return !(b & SQUASHFS_COMPRESSED_BIT_BLOCK);
}
inline int SQUASHFS_COMPRESSED_SIZE_BLOCK(uint32_t b) {
  return static_cast<int>(b & ~SQUASHFS_COMPRESSED_BIT_BLOCK);
}
inline constexpr uint64_t SQUASHFS_INVALID_BLK = ~uint64_t{0};
inline constexpr int SQUASHFS_CACHED_FRAGMENTS = 3;
inline constexpr int SQUASHFS_DEVBLK_SIZE = 1024;

// fs/squashfs/squashfs_fs_sb.h, the part the read path touches.
struct squashfs_sb_info {
  int devblksize = SQUASHFS_DEVBLK_SIZE;
  int devblksize_log2 = 10;
  int block_size = 0;
  int block_log = 0;
  uint64_t bytes_used = 0;
  CompressorId compression = CompressorId::kGzip;
  const SquashfsDecompressorOps* thread_ops = nullptr;
  void* stream = nullptr;  // the strategy's state
  squashfs_cache* fragment_cache = nullptr;
  squashfs_cache* read_page = nullptr;  // FILE_CACHE's one-block cache
  const ReadPathOps* read_path = nullptr;
  address_space_operations aops;  // what squashfs_iget installs
};

inline squashfs_sb_info* SQUASHFS_SB(super_block* sb) {
  return static_cast<squashfs_sb_info*>(sb->s_fs_info);
}

// fs/squashfs/squashfs_fs_i.h: a regular file's inode. The kernel embeds
// the VFS inode and finds this with container_of; here it derives from it.
struct squashfs_inode_info : inode {
  // The block list: one size word per full block (0 = sparse), starts.
  std::vector<uint64_t> block_start;
  std::vector<uint32_t> block_size_word;
  uint64_t fragment_block =
      SQUASHFS_INVALID_BLK;    // start of the fragment block
  uint32_t fragment_size = 0;  // its size word
  uint32_t fragment_offset = 0;
};

inline squashfs_inode_info* squashfs_i(inode* i) {
  return static_cast<squashfs_inode_info*>(i);
}

// fs/squashfs/file.c read_blocklist: the size word of block `index`, and
// its start in *block.
int read_blocklist(inode* i, int index, uint64_t* block);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_VARIANTS_SQUASHFS_H_
