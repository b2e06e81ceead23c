// SPDX-License-Identifier: GPL-2.0-only
// This file implements squashfs_mount: a variant mounted on a device for one
// run — a RAM disk holding the image (or a device the caller made), the
// super_block and squashfs_sb_info the variant fills (squashfs_fill_super),
// and one inode with its page cache per regular file (squashfs_iget, which
// installs the variant's a_ops).
#ifndef SQUASHLAB_HARNESS_MOUNT_H_
#define SQUASHLAB_HARNESS_MOUNT_H_

#include <string>
#include <vector>

#include "harness/image_model.h"
#include "hw_emul/block_device.h"
#include "model/kernel/ram_disk.h"
#include "model/variants/squashfs.h"

namespace kabi {
struct super_block;
}  // namespace kabi

namespace squashlab {

class Kernel;
struct ReadPathOps;
struct SquashfsDecompressorOps;

struct SquashfsMount {
  RamDisk* disk = nullptr;        // when mounted over the built-in RAM disk
  BlockDevice* device = nullptr;  // when mounted over an hw_emul device
  super_block sb;
  squashfs_sb_info msblk;
  std::vector<inode*> inodes;      // in ImageModel::files order
  std::vector<std::string> names;  // the files' names, in the same order
  // Real kernel code: the C super_block its mount filled (null otherwise).
  kabi::super_block* linux_sb = nullptr;

  inode* Find(const std::string& name) const;
};

// Run-owned. `medium` replaces the image bytes on the disk when non-empty
// (a fault plan's corrupted copy). REQUIRES: inside a Kernel's setup.
SquashfsMount* squashfs_mount(Kernel& k, const ImageModel& image,
                              const ReadPathOps* read_path,
                              const SquashfsDecompressorOps* decomp,
                              std::vector<uint8_t> medium = {});
// The same over a device the caller made (an hw_emul BlockDevice holding
// the image): `disk` stays null.
SquashfsMount* squashfs_mount(Kernel& k, const ImageModel& image,
                              const ReadPathOps* read_path,
                              const SquashfsDecompressorOps* decomp,
                              block_device* bdev);

// The same over a run-owned hw_emul BlockDevice with `options`, holding
// `medium` (the device's bytes: the image, or a fault plan's copy).
SquashfsMount* squashfs_mount(Kernel& k, const ImageModel& image,
                              const ReadPathOps* read_path,
                              const SquashfsDecompressorOps* decomp,
                              std::shared_ptr<const ImageBytes> medium,
                              const DeviceOptions& options);

// The device alone (RAM disk with `medium`, or the image; or an hw_emul
// device), for a file system that mounts itself (real kernel code).
SquashfsMount* squashfs_device_only(Kernel& k, const ImageModel& image,
                                    std::vector<uint8_t> medium);
SquashfsMount* squashfs_device_only(Kernel& k,
                                    std::shared_ptr<const ImageBytes> medium,
                                    const DeviceOptions& options);

}  // namespace squashlab

#endif  // SQUASHLAB_HARNESS_MOUNT_H_
