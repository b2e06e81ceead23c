// SPDX-License-Identifier: GPL-2.0-only
// This file implements the slab arena and its shadow: both are reserved by
// the first chunk taken (no memory is committed until a chunk is first
// touched), sized to fit the address-space limit, and chunks are recycled
// across runs by size, so a long campaign touches fresh memory only while
// its heaps grow.
#include "model/kernel/slab_arena.h"

#include <sys/mman.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "model/kernel/checkers/kasan_shadow.h"

namespace squashlab {

std::atomic<uintptr_t> SlabArena::base_{0};
std::atomic<uintptr_t> SlabArena::size_{0};
std::atomic<int8_t*> SlabArena::shadow_{nullptr};

namespace {

constexpr size_t kMiB = size_t{1} << 20;
// What the process may still map once the arena is reserved (threads'
// stacks and malloc arenas, fiber stacks, the runs' other allocations):
// an arena sized to the address-space limit leaves a quarter of the limit
// out, at least this much. (verify maps about 20 MiB besides the arena.)
constexpr size_t kMinHeadroom = size_t{64} << 20;
// The smallest arena worth reserving: one heap chunk (slab.cc).
constexpr size_t kMinBytes = size_t{256} << 10;

std::mutex g_mu;
size_t g_next = 0;      // guarded by g_mu: the first never-used byte
size_t g_size_mib = 0;  // guarded by g_mu: SetSizeMiB's, 0 if none
std::atomic<SlabArenaFailureHandler> g_handler{nullptr};

std::map<size_t, std::vector<char*>>& Returned() {  // guarded by g_mu
  static auto* m = new std::map<size_t, std::vector<char*>>;
  return *m;
}

std::string MiB(size_t bytes) { return std::to_string(bytes / kMiB) + " MiB"; }

// The address-space limit (RLIMIT_AS) in bytes, 0 if there is none.
size_t AddressSpaceLimit() {
  rlimit r{};
  if (getrlimit(RLIMIT_AS, &r) != 0 || r.rlim_cur == RLIM_INFINITY) return 0;
  return r.rlim_cur;
}

// What the process has mapped (VmSize), 0 if it cannot be read.
size_t MappedBytes() {
  std::FILE* f = std::fopen("/proc/self/status", "r");
  if (f == nullptr) return 0;
  char line[256];
  size_t kb = 0;
  while (std::fgets(line, sizeof line, f) != nullptr)
    if (std::sscanf(line, "VmSize: %zu kB", &kb) == 1) break;
  std::fclose(f);
  return kb << 10;
}

// Hands `line` to the failure handler, which does not return; without one
// (or if it does), prints it and aborts.
[[noreturn]] void Fail(const std::string& line) {
  if (SlabArenaFailureHandler h = g_handler.load()) h(line.c_str());
  std::fprintf(stderr, "%s\n", line.c_str());
  std::abort();
}

// "squashlab: PROBLEM (the limit); what to do" (the command line's flag
// and the environment variable that size the arena).
[[noreturn]] void FailOnLimit(const std::string& problem) {
  const size_t limit = AddressSpaceLimit();
  Fail("squashlab: " + problem + " (" +
       (limit == 0
            ? std::string("no address-space limit); ")
            : "address-space limit " + MiB(limit) + "); raise the limit or ") +
       "set --arena-mb / " + SlabArena::kSizeEnv);
}

// SQUASHLAB_ARENA_MB in MiB, 0 if it is not set.
size_t EnvMiB() {
  const char* v = std::getenv(SlabArena::kSizeEnv);
  if (v == nullptr || *v == '\0') return 0;
  char* end = nullptr;
  unsigned long long mib = std::strtoull(v, &end, 10);
  if (*v < '0' || *v > '9' || *end != '\0' || mib == 0 ||
      mib > SlabArena::kMaxMiB)
    Fail(std::string("squashlab: ") + SlabArena::kSizeEnv + "=" + v +
         ": not a number of MiB from 1 to " +
         std::to_string(SlabArena::kMaxMiB));
  return mib;
}

// The arena's size: as asked (SetSizeMiB, else SQUASHLAB_ARENA_MB), else
// the default, or what the address-space limit leaves for the arena and
// its shadow (an eighth more) after what is mapped and the headroom, if
// less. REQUIRES: g_mu.
size_t ArenaBytes() {
  size_t mib = g_size_mib != 0 ? g_size_mib : EnvMiB();
  if (mib != 0) return mib * kMiB;
  const size_t limit = AddressSpaceLimit();
  if (limit == 0) return SlabArena::kDefaultBytes;
  const size_t taken = MappedBytes() + std::max(kMinHeadroom, limit / 4);
  const size_t left = limit > taken ? (limit - taken) / 9 * 8 : 0;
  return std::min(SlabArena::kDefaultBytes,
                  left / SlabArena::kGranule * SlabArena::kGranule);
}

// Address space without memory behind it until touched; nullptr if the
// host refuses.
void* Map(size_t bytes) {
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return p == MAP_FAILED ? nullptr : p;
}

// Relaxed atomic stores (readers take no lock), eight granules a store
// where the shadow is word-aligned: a chunk's 256 KiB is 4,096 of them.
void SetShadow(uintptr_t from, uintptr_t to, int8_t value) {
  int8_t* s = SlabArena::Shadow();
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

bool SlabArena::SetSizeMiB(size_t mib) {
  std::lock_guard<std::mutex> l(g_mu);
  if (Size() != 0) return false;
  g_size_mib = std::min(mib, kMaxMiB);
  return true;
}

void SlabArena::SetFailureHandler(SlabArenaFailureHandler handler) {
  g_handler.store(handler);
}

void SlabArena::ReserveLocked() {
  const size_t bytes = ArenaBytes();
  void* base = bytes < kMinBytes ? nullptr : Map(bytes);
  // The shadow: the arena's window of the inline KASAN shadow where the
  // host grants that (kasan_shadow.h), else a range of its own.
  void* shadow = nullptr;
  if (base != nullptr) {
    shadow = ReserveKasanShadow(nullptr)
                 ? KasanShadowOf(reinterpret_cast<uintptr_t>(base))
                 : Map(bytes / 8);
    if (shadow == nullptr) {
      munmap(base, bytes);
      base = nullptr;
    }
  }
  if (base == nullptr) {
    FailOnLimit(bytes < kMinBytes
                    ? std::string("no room left for the slab arena")
                    : "cannot reserve a slab arena of " + MiB(bytes));
  }
  shadow_.store(static_cast<int8_t*>(shadow), std::memory_order_relaxed);
  base_.store(reinterpret_cast<uintptr_t>(base), std::memory_order_relaxed);
  size_.store(bytes, std::memory_order_release);  // last: slab_arena.h
}

char* SlabArena::TakeChunk(size_t bytes) {
  bytes = (bytes + kGranule - 1) / kGranule * kGranule;
  char* chunk = nullptr;
  {
    std::lock_guard<std::mutex> l(g_mu);
    if (Size() == 0) ReserveLocked();
    auto& list = Returned()[bytes];
    if (!list.empty()) {  // its shadow was reset when it came back
      chunk = list.back();
      list.pop_back();
      return chunk;
    }
    if (g_next + bytes > Size())
      FailOnLimit("the slab arena needs more than " + MiB(Size()));
    chunk = reinterpret_cast<char*>(Base() + g_next);
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
  uintptr_t off = reinterpret_cast<uintptr_t>(p) - Base();
  SetShadow(off >> 3, (off + n) >> 3, 0);
  if (n & 7)
    __atomic_store_n(Shadow() + ((off + n) >> 3), static_cast<int8_t>(n & 7),
                     __ATOMIC_RELAXED);
}

void SlabArena::Poison(const void* p, size_t n, int8_t value) {
  uintptr_t off = reinterpret_cast<uintptr_t>(p) - Base();
  SetShadow(off >> 3, (off + n + 7) >> 3, value);
}

}  // namespace squashlab
