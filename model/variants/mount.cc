// This file implements the model's mount of an image.
#include "model/variants/mount.h"

#include <algorithm>

#include "model/filemap.h"
#include "model/kernel.h"
#include "model/variants/cache.h"
#include "model/variants/decompressor.h"
#include "model/variants/read_path.h"

namespace squashlab {

inode* SquashfsMount::Find(const std::string& name) const {
  for (inode* i : inodes)
    if (i->name == name) return i;
  return nullptr;
}

SquashfsMount* squashfs_mount(Kernel& k, const ImageModel& image, const ReadPathOps* read_path,
                              const SquashfsDecompressorOps* decomp, std::vector<uint8_t> medium) {
  std::vector<unsigned char> bytes = medium.empty() ? image.bytes : std::move(medium);
  // The device is a whole number of 4K pages, as mksquashfs pads it.
  bytes.resize((bytes.size() + 4095) / 4096 * 4096, 0);
  auto* disk = k.New<RamDisk>(std::move(bytes), "sda");
  disk->bdev()->logical_block_size = 512;
  SquashfsMount* m = squashfs_mount(k, image, read_path, decomp, disk->bdev());
  m->disk = disk;
  return m;
}

SquashfsMount* squashfs_mount(Kernel& k, const ImageModel& image, const ReadPathOps* read_path,
                              const SquashfsDecompressorOps* decomp, block_device* bdev) {
  auto* m = k.New<SquashfsMount>();
  m->sb.s_bdev = bdev;
  // sb_min_blocksize(sb, SQUASHFS_DEVBLK_SIZE): never below the device's
  // logical block size (a 4K-sector device reads in 4K buffers).
  unsigned devblk = std::max<unsigned>(SQUASHFS_DEVBLK_SIZE, bdev->logical_block_size);
  unsigned char bits = 0;
  while ((1u << bits) < devblk) bits++;
  m->sb.s_blocksize = devblk;
  m->sb.s_blocksize_bits = bits;
  m->sb.s_fs_info = &m->msblk;

  squashfs_sb_info& msblk = m->msblk;
  msblk.devblksize = static_cast<int>(devblk);
  msblk.devblksize_log2 = bits;
  msblk.block_size = static_cast<int>(image.block_size);
  msblk.block_log = 0;
  while ((1 << msblk.block_log) < msblk.block_size) msblk.block_log++;
  msblk.bytes_used = image.bytes_used;
  msblk.compression = image.compressor;
  msblk.read_path = read_path;
  msblk.thread_ops = decomp;
  msblk.fragment_cache =
      squashfs_cache_init("fragment", SQUASHFS_CACHED_FRAGMENTS, msblk.block_size);
  msblk.read_page = squashfs_cache_init("data", 1, msblk.block_size);
  decomp->create(&msblk);

  for (const FileModel& f : image.files) {
    auto* ino = k.New<inode>();
    ino->i_sb = &m->sb;
    ino->name = f.name;
    ino->i_size = f.layout.file_size;
    for (const StoredBlock& b : f.layout.blocks) {
      ino->block_start.push_back(b.start);
      ino->block_size_word.push_back(
          b.stored_size == 0 ? 0 : (b.stored_size | (b.compressed ? 0 : SQUASHFS_COMPRESSED_BIT_BLOCK)));
    }
    if (f.layout.has_tail) {
      ino->fragment_block = f.layout.fragment.start;
      ino->fragment_size = f.layout.fragment.stored_size |
                           (f.layout.fragment.compressed ? 0 : SQUASHFS_COMPRESSED_BIT_BLOCK);
      ino->fragment_offset = f.layout.tail_offset;
    }
    ino->i_mapping = new_address_space(f.name);
    ino->i_mapping->host = ino;
    m->inodes.push_back(ino);
  }
  return m;
}

}  // namespace squashlab
