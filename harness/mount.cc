// SPDX-License-Identifier: GPL-2.0-only
// This file implements the mount of an image on a device for one run.
#include "harness/mount.h"

#include <algorithm>

#include "model/kernel/kernel.h"
#include "model/variants/super.h"

namespace squashlab {

inode* SquashfsMount::Find(const std::string& name) const {
  for (size_t i = 0; i < inodes.size(); i++)
    if (names[i] == name) return inodes[i];
  return nullptr;
}

SquashfsMount* squashfs_mount(Kernel& k, const ImageModel& image,
                              const ReadPathOps* read_path,
                              const SquashfsDecompressorOps* decomp,
                              std::vector<uint8_t> medium) {
  std::vector<unsigned char> bytes =
      medium.empty() ? image.bytes : std::move(medium);
  // The device is a whole number of 4K pages, as mksquashfs pads it.
  bytes.resize((bytes.size() + 4095) / 4096 * 4096, 0);
  auto* disk = k.New<RamDisk>(std::move(bytes), "sda");
  disk->bdev()->logical_block_size = 512;
  SquashfsMount* m = squashfs_mount(k, image, read_path, decomp, disk->bdev());
  m->disk = disk;
  return m;
}

SquashfsMount* squashfs_mount(Kernel& k, const ImageModel& image,
                              const ReadPathOps* read_path,
                              const SquashfsDecompressorOps* decomp,
                              block_device* bdev) {
  auto* m = k.New<SquashfsMount>();
  m->sb.s_bdev = bdev;
  squashfs_fill_super(&m->sb, &m->msblk,
                      {image.block_size, image.bytes_used, image.compressor},
                      read_path, decomp);
  unsigned long ino_nr = 1;
  for (const FileModel& f : image.files) {
    m->inodes.push_back(squashfs_iget(&m->sb, f.layout, f.name, ++ino_nr));
    m->names.push_back(f.name);
  }
  return m;
}

SquashfsMount* squashfs_mount(Kernel& k, const ImageModel& image,
                              const ReadPathOps* read_path,
                              const SquashfsDecompressorOps* decomp,
                              std::shared_ptr<const ImageBytes> medium,
                              const DeviceOptions& options) {
  auto* device = k.New<BlockDevice>(std::move(medium), options);
  SquashfsMount* m =
      squashfs_mount(k, image, read_path, decomp, device->bdev());
  m->device = device;
  return m;
}

SquashfsMount* squashfs_device_only(Kernel& k, const ImageModel& image,
                                    std::vector<uint8_t> medium) {
  std::vector<unsigned char> bytes =
      medium.empty() ? image.bytes : std::move(medium);
  bytes.resize((bytes.size() + 4095) / 4096 * 4096, 0);
  auto* m = k.New<SquashfsMount>();
  m->disk = k.New<RamDisk>(std::move(bytes), "sda");
  m->disk->bdev()->logical_block_size = 512;
  return m;
}

SquashfsMount* squashfs_device_only(Kernel& k,
                                    std::shared_ptr<const ImageBytes> medium,
                                    const DeviceOptions& options) {
  auto* m = k.New<SquashfsMount>();
  m->device = k.New<BlockDevice>(std::move(medium), options);
  return m;
}

}  // namespace squashlab
