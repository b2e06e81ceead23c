// SPDX-License-Identifier: GPL-2.0-only
// This file implements the RAM disk driver of the model's tests.
#include "model/kernel/ram_disk.h"

#include <cstring>

#include "model/kernel/filemap.h"
#include "model/kernel/kernel.h"

namespace squashlab {

RamDisk::RamDisk(std::vector<unsigned char> bytes, std::string name)
    : bytes_(std::move(bytes)) {
  bdev_.driver = this;
  bdev_.name = std::move(name);
}

void RamDisk::submit(bio* b) {
  Kernel& k = Kernel::Current();
  TaskSpec spec;
  spec.name = "irq/" + bdev_.name;
  spec.context = TaskContext::kInterrupt;
  spec.cpu = irq_cpu_ >= 0 ? irq_cpu_ : next_irq_.fetch_add(1);
  spec.prio = 100;
  spec.start_ns = k.NowNs() + latency_ns_;
  spec.body = [this, b] { Complete(b); };
  k.Spawn(std::move(spec));
}

void RamDisk::Complete(bio* b) {
  Kernel& k = Kernel::Current();
  k.Charge(CostKind::kIrqEntry);
  int err = fault_ ? fault_(b) : 0;
  // block/blk-core.c bio_check_eod: a bio past the end of the device (a
  // corrupt image's block address, however large) fails with EIO; the
  // bounds are checked without overflow.
  uint64_t pos = b->bi_sector <= bytes_.size() / 512 ? b->bi_sector * 512
                                                     : bytes_.size() + 1;
  for (const bio_vec& v : b->bi_io_vec) {
    if (pos > bytes_.size() || v.bv_len > bytes_.size() - pos) {
      err = -EIO;
      break;
    }
    if (err == 0 && b->bi_rw != WRITE)
      std::memcpy(bio_vec_data(v), &bytes_[pos], v.bv_len);
    pos += v.bv_len;
  }
  completed_++;
  bio_endio(b, err);
}

}  // namespace squashlab
