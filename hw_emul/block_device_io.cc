// SPDX-License-Identifier: GPL-2.0-only
// This file implements BlockDevice's data path: what each bio of a
// completing request gets (the image's bytes, or the error a fault plan or a
// short transfer gives it, or a flipped bit), the immediate completions of
// refused bios, and the keyed fault draws.
#include <algorithm>
#include <cerrno>
#include <cstring>

#include "hw_emul/block_device.h"
#include "model/kernel/bio.h"
#include "model/kernel/kernel.h"
#include "reader/image_bytes.h"

namespace squashlab {
namespace {

bool Overlaps(const SectorRange& r, uint64_t start, uint64_t end) {
  return r.first < end && r.last >= start;
}

// The byte at `off` bytes into the bio's data.
char* BioByte(bio* b, uint64_t off) {
  for (const bio_vec& v : b->bi_io_vec) {
    if (off < v.bv_len) return bio_vec_data(v) + off;
    off -= v.bv_len;
  }
  return nullptr;
}

}  // namespace

int BlockDevice::BioErrorLocked(const bio* b, size_t index, size_t short_bio) {
  const FaultPlan& plan = opt_.faults;
  if (index >= short_bio) return -EIO;
  uint64_t start = b->bi_sector;
  uint64_t end = start + b->bi_size / 512;
  bool eio = false;
  for (const SectorRange& r : plan.eio_sectors)
    eio = eio || Overlaps(r, start, end);
  if (!eio && plan.eio > 0)
    eio = DrawLocked().Fires(plan.eio, FaultSite::kEio, start,
                             Nth(FaultSite::kEio, start));
  if (eio) counters_.eio++;
  return eio ? -EIO : 0;
}

int BlockDevice::CopyIn(bio* b) {
  uint64_t pos = b->bi_sector * 512;
  for (const bio_vec& v : b->bi_io_vec) {
    char* dst = bio_vec_data(v);
    uint64_t in_image = pos < image_->size()
                            ? std::min<uint64_t>(v.bv_len, image_->size() - pos)
                            : 0;
    if (in_image > 0 &&
        !image_->ReadAt(pos, in_image, reinterpret_cast<uint8_t*>(dst)).ok())
      return -EIO;
    // The last block past the image's end reads as zeros.
    std::memset(dst + in_image, 0, v.bv_len - in_image);
    pos += v.bv_len;
  }
  return 0;
}

void BlockDevice::FlipLocked(bio* b) {
  const FaultPlan& plan = opt_.faults;
  uint64_t start = b->bi_sector;
  uint64_t end = start + b->bi_size / 512;
  FaultDraw draw = DrawLocked();
  auto flip = [&](uint64_t off, int bit) {
    char* p = BioByte(b, off);
    if (p == nullptr) return;
    *p = static_cast<char>(*p ^ (1 << bit));
    flips_.push_back(FlipRecord{start * 512 + off, bit});
    counters_.flips++;
  };
  for (const SectorRange& r : plan.flip_sectors) {
    if (!Overlaps(r, start, end)) continue;
    uint64_t s = std::max(r.first, start);
    uint64_t v =
        draw.Value(FaultSite::kFlipBit, s, Nth(FaultSite::kFlipBit, s));
    flip((s - start) * 512 + v % 512, static_cast<int>((v >> 32) % 8));
    break;
  }
  if (plan.flip > 0 && draw.Fires(plan.flip, FaultSite::kFlip, start,
                                  Nth(FaultSite::kFlip, start))) {
    uint64_t v = draw.Value(FaultSite::kFlipBit, ~start,
                            Nth(FaultSite::kFlipBit, ~start));
    flip(v % b->bi_size, static_cast<int>((v >> 32) % 8));
  }
}

void BlockDevice::CompleteNow(std::vector<bio*> bios, int error,
                              const char* why) {
  Kernel& k = Kernel::Current();
  TaskSpec spec;
  spec.name = std::string("irq/") + opt_.name;
  spec.context = TaskContext::kInterrupt;
  spec.cpu = opt_.irq_cpu;
  spec.prio = 100;
  spec.start_ns = k.NowNs();
  spec.body = [this, bios, error, why] {
    Kernel& kk = Kernel::Current();
    kk.Charge(CostKind::kIrqEntry);
    kk.Point(why, bios.empty() ? 0 : bios.front()->id);
    {
      std::lock_guard<std::mutex> l(mu_);
      counters_.bios_completed += bios.size();
      counters_.bios_failed += bios.size();
    }
    for (bio* b : bios) bio_endio(b, error);
  };
  k.Spawn(std::move(spec));
}

uint64_t BlockDevice::Nth(FaultSite site, uint64_t key) {
  return nth_[{static_cast<uint64_t>(site), key}]++;
}

FaultDraw BlockDevice::DrawLocked() {
  if (opt_.faults.seed) return FaultDraw(*opt_.faults.seed);
  Kernel* k = Kernel::CurrentOrNull();
  return FaultDraw(k ? k->config().seed : 1);
}

}  // namespace squashlab
