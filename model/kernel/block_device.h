// SPDX-License-Identifier: GPL-2.0-only
// This file implements block_device and super_block as the read path sees
// them, and BlockDriver, the interface a device (hw_emul/, or the RAM disk
// of the tests) implements to service bios.
#ifndef SQUASHLAB_MODEL_KERNEL_BLOCK_DEVICE_H_
#define SQUASHLAB_MODEL_KERNEL_BLOCK_DEVICE_H_

#include <cstdint>
#include <string>
#include <vector>

namespace squashlab {

struct bio;
using sector_t = uint64_t;

// A device driver. submit() is called in the submitter's context; the driver
// must later call bio_endio(bio, error) exactly once, from a task of context
// kInterrupt (spawned through Kernel::Spawn), so that every executor
// schedules the completion like any other task.
class BlockDriver {
 public:
  virtual ~BlockDriver() = default;
  virtual void submit(bio* b) = 0;
  // A flushed plug's bios for this driver, in submission order: drivers
  // with a request queue take them together (and merge them); by default
  // each is submitted on its own.
  virtual void submit_batch(const std::vector<bio*>& bios) {
    for (bio* b : bios) submit(b);
  }
};

struct block_device {
  BlockDriver* driver = nullptr;
  unsigned logical_block_size = 512;
  std::string name = "sda";
};

struct super_block {
  block_device* s_bdev = nullptr;
  unsigned long s_blocksize = 1024;
  unsigned char s_blocksize_bits = 10;
  void* s_fs_info = nullptr;
};

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_KERNEL_BLOCK_DEVICE_H_
