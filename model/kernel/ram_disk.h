// SPDX-License-Identifier: GPL-2.0-only
// This file implements RamDisk, the simplest BlockDriver: it serves bios from
// bytes in memory, completing each from its own interrupt-context task, with
// an optional fault hook (-EIO per bio). The real devices live in hw_emul/.
#ifndef SQUASHLAB_MODEL_KERNEL_RAM_DISK_H_
#define SQUASHLAB_MODEL_KERNEL_RAM_DISK_H_

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "model/kernel/bio.h"
#include "model/kernel/block_device.h"

namespace squashlab {

class RamDisk : public BlockDriver {
 public:
  // `bytes` is the medium; the disk keeps a copy.
  explicit RamDisk(std::vector<unsigned char> bytes, std::string name = "ram0");
  RamDisk(const RamDisk&) = delete;
  RamDisk& operator=(const RamDisk&) = delete;

  block_device* bdev() { return &bdev_; }
  // Returns the error a bio completes with (0, -EIO); consulted per bio.
  void set_fault(std::function<int(const bio*)> fault) {
    fault_ = std::move(fault);
  }
  // Completion latency charged in virtual time (simulate).
  void set_latency_ns(uint64_t ns) { latency_ns_ = ns; }
  // The CPU completions interrupt (default 0); -1 spreads them round robin
  // (per-CPU completion queues), so that two completions can interleave.
  void set_irq_cpu(int cpu) { irq_cpu_ = cpu; }
  long completed() const { return completed_.load(); }

  void submit(bio* b) override;

 private:
  void Complete(bio* b);

  std::vector<unsigned char> bytes_;
  block_device bdev_;
  std::function<int(const bio*)> fault_;
  uint64_t latency_ns_ = 0;
  int irq_cpu_ = 0;
  std::atomic<int> next_irq_{0};
  std::atomic<long> completed_{0};
};

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_KERNEL_RAM_DISK_H_
