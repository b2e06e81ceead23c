// SPDX-License-Identifier: GPL-2.0-only
// This file implements the per-CPU buffer_head LRU of fs/buffer.c.
#include "model/kernel/bh_lru.h"

#include <algorithm>
#include <mutex>
#include <vector>

#include "model/kernel/buffer_head.h"
#include "model/kernel/kernel.h"
#include "model/kernel/kernel_internal.h"

namespace squashlab {
namespace {

// The current task's CPU's LRU. REQUIRES: tree_lock held.
std::vector<buffer_head*>& ThisCpuLru(Kernel& k) {
  auto& lrus = KernelInternal::BhLrus(k);
  Task* t = k.current_task();
  int cpu = t != nullptr && t->cpu >= 0 ? t->cpu : 0;
  return lrus[static_cast<size_t>(cpu) % lrus.size()];
}

}  // namespace

buffer_head* lookup_bh_lru(block_device* bdev, sector_t block) {
  Kernel& k = Kernel::Current();
  std::lock_guard<RunMutex> l(KernelInternal::TreeLock(k));
  auto& lru = ThisCpuLru(k);
  for (size_t i = 0; i < lru.size(); i++) {
    buffer_head* bh = lru[i];
    if (bh->b_bdev != bdev || bh->b_blocknr != block) continue;
    // The LRU's order decides later evictions; the reduction knows the
    // __getblk step touches this CPU's LRU (fp::kBhLru).
    if (i > 0) std::rotate(lru.begin(), lru.begin() + i, lru.begin() + i + 1);
    bh->b_count.fetch_add(1);
    return bh;
  }
  return nullptr;
}

void bh_lru_install(buffer_head* bh) {
  Kernel& k = Kernel::Current();
  buffer_head* evictee = nullptr;
  {
    std::lock_guard<RunMutex> l(KernelInternal::TreeLock(k));
    auto& lru = ThisCpuLru(k);
    auto it = std::find(lru.begin(), lru.end(), bh);
    if (it != lru.end()) {
      std::rotate(lru.begin(), it, it + 1);
      return;
    }
    bh->b_count.fetch_add(1);  // the LRU's own reference
    lru.insert(lru.begin(), bh);
    if (lru.size() > static_cast<size_t>(BH_LRU_SIZE)) {
      evictee = lru.back();
      lru.pop_back();
    }
  }
  if (evictee != nullptr) __brelse(evictee);
}

void invalidate_bh_lrus() {
  Kernel& k = Kernel::Current();
  std::vector<buffer_head*> all;
  {
    std::lock_guard<RunMutex> l(KernelInternal::TreeLock(k));
    for (auto& lru : KernelInternal::BhLrus(k)) {
      all.insert(all.end(), lru.begin(), lru.end());
      lru.clear();
    }
  }
  for (buffer_head* bh : all) __brelse(bh);
}

}  // namespace squashlab
