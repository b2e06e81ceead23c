// This file implements squashfs_mount: the model's fill_super — a RAM disk
// holding the image (or a device the caller made), the super_block and squashfs_sb_info of one run, the
// fragment and data caches, the decompressor strategy's streams, and one
// inode with its page cache per regular file.
#ifndef SQUASHLAB_MODEL_VARIANTS_MOUNT_H_
#define SQUASHLAB_MODEL_VARIANTS_MOUNT_H_

#include <string>
#include <vector>

#include "model/ram_disk.h"
#include "model/variants/image_model.h"
#include "model/variants/squashfs.h"

namespace squashlab {

class Kernel;
struct ReadPathOps;
struct SquashfsDecompressorOps;

struct SquashfsMount {
  RamDisk* disk = nullptr;  // when mounted over the built-in RAM disk
  super_block sb;
  squashfs_sb_info msblk;
  std::vector<inode*> inodes;  // in ImageModel::files order

  inode* Find(const std::string& name) const;
};

// Run-owned. `medium` replaces the image bytes on the disk when non-empty
// (a fault plan's corrupted copy). REQUIRES: inside a Kernel's setup.
SquashfsMount* squashfs_mount(Kernel& k, const ImageModel& image, const ReadPathOps* read_path,
                              const SquashfsDecompressorOps* decomp,
                              std::vector<uint8_t> medium = {});
// The same over a device the caller made (an hw_emul BlockDevice holding
// the image): `disk` stays null.
SquashfsMount* squashfs_mount(Kernel& k, const ImageModel& image, const ReadPathOps* read_path,
                              const SquashfsDecompressorOps* decomp, block_device* bdev);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_VARIANTS_MOUNT_H_
