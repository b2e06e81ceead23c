// SPDX-License-Identifier: GPL-2.0-only
// This file implements the squashfs cache as 3.13's cache.c does: one
// lock over the entries, round-robin replacement of unused entries, errors
// kept in the entry for the caller to test. The kernel's lock is a
// spinlock_t, never held across a sleep; it is a mutex here because the
// model's contended spin_lock sleeps with preemption off, which the
// threads executor cannot run (see the README's model notes).
#include "model/variants/cache.h"

#include <algorithm>
#include <cstring>

#include "model/kernel/kernel.h"
#include "model/kernel/page.h"
#include "model/kernel/slab.h"
#include "model/variants/page_actor.h"

namespace squashlab {

squashfs_cache* squashfs_cache_init(const char* name, int entries,
                                    int block_size) {
  Kernel& k = Kernel::Current();
  auto* cache = k.New<squashfs_cache>();
  cache->name = name;
  cache->entries = entries;
  cache->unused = entries;
  cache->block_size = block_size;
  cache->pages = (block_size + static_cast<int>(PAGE_SIZE) - 1) /
                 static_cast<int>(PAGE_SIZE);
  mutex_init(&cache->lock);
  for (int i = 0; i < entries; i++) {
    auto e = std::make_unique<squashfs_cache_entry>();
    e->cache = cache;
    e->pages.resize(cache->pages, std::vector<char>(PAGE_SIZE));
    for (auto& p : e->pages) e->data.push_back(p.data());
    cache->entry.push_back(std::move(e));
  }
  return cache;
}

squashfs_cache_entry* squashfs_cache_get(super_block* sb, squashfs_cache* cache,
                                         uint64_t block, int length) {
  int i, n;
  squashfs_cache_entry* entry;
  mutex_lock(&cache->lock);
  for (;;) {
    for (i = cache->curr_blk, n = 0; n < cache->entries; n++) {
      if (cache->entry[i]->block == block) {
        cache->curr_blk = i;
        break;
      }
      i = (i + 1) % cache->entries;
    }
    if (n == cache->entries) {
      // Block not in cache: if all entries are used, go to sleep waiting
      // for one to become available.
      if (cache->unused == 0) {
        cache->num_waiters++;
        mutex_unlock(&cache->lock);
        wait_event(cache->wait_queue, [cache] { return cache->unused > 0; });
        mutex_lock(&cache->lock);
        cache->num_waiters--;
        continue;
      }
      // At least one unused entry: pick the next one round-robin.
      i = cache->next_blk;
      for (n = 0; n < cache->entries; n++) {
        if (cache->entry[i]->refcount == 0) break;
        i = (i + 1) % cache->entries;
      }
      cache->next_blk = (i + 1) % cache->entries;
      entry = cache->entry[i].get();
      cache->unused--;
      entry->block = block;
      entry->refcount = 1;
      entry->pending = 1;
      entry->num_waiters = 0;
      entry->error = 0;
      mutex_unlock(&cache->lock);

      squashfs_page_actor* actor =
          squashfs_page_actor_init(entry->data.data(), cache->pages, 0);
      entry->length =
          squashfs_read_data(sb, block, length, &entry->next_index, actor);
      kfree(actor);

      mutex_lock(&cache->lock);
      if (entry->length < 0) entry->error = entry->length;
      entry->pending = 0;
      // Wake up anybody waiting for the buffer to be filled.
      if (entry->num_waiters) {
        mutex_unlock(&cache->lock);
        wake_up_all(&entry->wait_queue);
      } else {
        mutex_unlock(&cache->lock);
      }
      return entry;
    }
    // Block already in cache: take a reference; if it is still being
    // filled, sleep until it is.
    entry = cache->entry[i].get();
    if (entry->refcount == 0) cache->unused--;
    entry->refcount++;
    if (entry->pending) {
      entry->num_waiters++;
      mutex_unlock(&cache->lock);
      wait_event(entry->wait_queue, [entry] { return entry->pending == 0; });
    } else {
      mutex_unlock(&cache->lock);
    }
    return entry;
  }
}

void squashfs_cache_put(squashfs_cache_entry* entry) {
  squashfs_cache* cache = entry->cache;
  mutex_lock(&cache->lock);
  entry->refcount--;
  if (entry->refcount == 0) {
    cache->unused++;
    // If there's any processes waiting for a block to become available,
    // wake one up.
    if (cache->num_waiters) {
      mutex_unlock(&cache->lock);
      wake_up(&cache->wait_queue);
      return;
    }
  }
  mutex_unlock(&cache->lock);
}

int squashfs_copy_data(void* buffer, squashfs_cache_entry* entry, int offset,
                       int length) {
  int remaining = length;
  if (length == 0) return 0;
  if (entry == nullptr) {
    std::memset(buffer, 0, static_cast<size_t>(length));
    return length;
  }
  if (offset + length > entry->length)
    remaining = std::max(0, entry->length - offset);
  length = remaining;
  char* out = static_cast<char*>(buffer);
  while (remaining > 0) {
    int pg = offset / static_cast<int>(PAGE_SIZE),
        in = offset % static_cast<int>(PAGE_SIZE);
    int bytes = std::min(remaining, static_cast<int>(PAGE_SIZE) - in);
    std::memcpy(out, entry->pages[pg].data() + in, static_cast<size_t>(bytes));
    out += bytes;
    offset += bytes;
    remaining -= bytes;
  }
  model_charge(CostKind::kMemcpyByte, static_cast<uint64_t>(length));
  return length;
}

squashfs_cache_entry* squashfs_get_fragment(super_block* sb,
                                            uint64_t start_block, int length) {
  return squashfs_cache_get(sb, SQUASHFS_SB(sb)->fragment_cache, start_block,
                            length);
}

squashfs_cache_entry* squashfs_get_datablock(super_block* sb,
                                             uint64_t start_block, int length) {
  return squashfs_cache_get(sb, SQUASHFS_SB(sb)->read_page, start_block,
                            length);
}

}  // namespace squashlab
