// SPDX-License-Identifier: GPL-2.0-only
// This file implements the slab arena and its shadow: both are reserved
// once (no memory is committed until a chunk is first touched), chunks are
// recycled across runs by size, so a long campaign touches fresh memory
// only while its heaps grow.
#include "model/kernel/slab_arena.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <vector>

namespace squashlab {

uintptr_t SlabArena::base = 0;
uintptr_t SlabArena::size = 0;
int8_t* SlabArena::shadow = nullptr;

namespace {

// Reserved, not committed: a run's debug heap never reuses memory, so the
// arena must outgrow the largest run times the runs alive at once.
constexpr size_t kArenaBytes = size_t{4} << 30;

std::mutex g_mu;
size_t g_next = 0;  // guarded by g_mu: the first never-used byte
std::map<size_t, std::vector<char*>>& Returned() {  // guarded by g_mu
  static auto* m = new std::map<size_t, std::vector<char*>>;
  return *m;
}

void* Reserve(size_t bytes) {
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) {
    std::fprintf(stderr, "squashlab: cannot reserve the slab arena\n");
    std::abort();
  }
  return p;
}

// Before main: the instrumented code reads base and size without a lock.
void Init() {
  if (SlabArena::base != 0) return;
  SlabArena::shadow = static_cast<int8_t*>(Reserve(kArenaBytes / 8));
  SlabArena::base = reinterpret_cast<uintptr_t>(Reserve(kArenaBytes));
  SlabArena::size = kArenaBytes;
}
const bool kInitialised = (Init(), true);

// Relaxed atomic stores (readers take no lock), eight granules a store
// where the shadow is word-aligned: a chunk's 256 KiB is 4,096 of them.
void SetShadow(uintptr_t from, uintptr_t to, int8_t value) {
  int8_t* s = SlabArena::shadow;
  uintptr_t g = from;
  for (; g < to && (g & 7) != 0; g++)
    __atomic_store_n(s + g, value, __ATOMIC_RELAXED);
  const uint64_t word = 0x0101010101010101ULL * static_cast<uint8_t>(value);
  for (; g + 8 <= to; g += 8)
    __atomic_store_n(reinterpret_cast<uint64_t*>(s + g), word,
                     __ATOMIC_RELAXED);
  for (; g < to; g++) __atomic_store_n(s + g, value, __ATOMIC_RELAXED);
}

}  // namespace

char* SlabArena::TakeChunk(size_t bytes) {
  (void)kInitialised;
  bytes = (bytes + kGranule - 1) / kGranule * kGranule;
  char* chunk = nullptr;
  {
    std::lock_guard<std::mutex> l(g_mu);
    Init();
    auto& list = Returned()[bytes];
    if (!list.empty()) {  // its shadow was reset when it came back
      chunk = list.back();
      list.pop_back();
      return chunk;
    }
    if (g_next + bytes > size) {
      std::fprintf(stderr, "squashlab: the slab arena (%zu MiB) is full\n",
                   static_cast<size_t>(size >> 20));
      std::abort();
    }
    chunk = reinterpret_cast<char*>(base + g_next);
    g_next += bytes;
  }
  Poison(chunk, bytes, kShadowNever);  // fresh arena: once
  return chunk;
}

void SlabArena::ReturnChunk(char* chunk, size_t bytes, size_t used) {
  bytes = (bytes + kGranule - 1) / kGranule * kGranule;
  Poison(chunk, std::min(used, bytes), kShadowNever);
  std::lock_guard<std::mutex> l(g_mu);
  Returned()[bytes].push_back(chunk);
}

void SlabArena::Unpoison(const void* p, size_t n) {
  uintptr_t off = reinterpret_cast<uintptr_t>(p) - base;
  SetShadow(off >> 3, (off + n) >> 3, 0);
  if (n & 7)
    __atomic_store_n(shadow + ((off + n) >> 3), static_cast<int8_t>(n & 7),
                     __ATOMIC_RELAXED);
}

void SlabArena::Poison(const void* p, size_t n, int8_t value) {
  uintptr_t off = reinterpret_cast<uintptr_t>(p) - base;
  SetShadow(off >> 3, (off + n + 7) >> 3, value);
}

}  // namespace squashlab
