// SPDX-License-Identifier: GPL-2.0-only
// This file implements the slab arena: one address range reserved for the
// whole process on first use, from which every run's heap (slab.h) takes
// its chunks, and its KASAN-style shadow (one byte per 8 bytes of arena, as
// the kernel's generic KASAN). A load or store the compiler instrumented
// (kasan.cc) asks only "in the arena? then is its shadow byte 0?", a
// subtraction, a compare and a byte load.
//
// Thread-safety: chunks are taken and returned under the arena's own lock;
// the range is published once (shadow and base, then size with release
// ordering) and read without one, size first (acquire): a reader that sees
// a size sees the base and shadow that go with it, one that sees 0 finds
// no address in the arena. The shadow is read without a lock (relaxed
// atomic bytes) and written only by the heap that owns the chunk, under its
// kernel's tree_lock.
#ifndef SQUASHLAB_MODEL_KERNEL_SLAB_ARENA_H_
#define SQUASHLAB_MODEL_KERNEL_SLAB_ARENA_H_

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace squashlab {

// Shadow values (one per 8-byte granule): 0 accessible; 1..7 the first k
// bytes accessible; the rest are KASAN's poison classes.
inline constexpr int8_t kShadowRedzone = static_cast<int8_t>(0xfc);
inline constexpr int8_t kShadowFreed = static_cast<int8_t>(0xfb);
// Arena memory no object was ever carved from (a chunk's unused tail).
inline constexpr int8_t kShadowNever = static_cast<int8_t>(0xfe);

// Called with a one-line message (no newline) when the arena cannot be
// reserved or is full; must not return. The default prints it and aborts.
using SlabArenaFailureHandler = void (*)(const char* message);

struct SlabArena {
  // The arena's size when nothing else decides: 4 GiB, or less if the
  // address-space limit leaves less (slab_arena.cc).
  static constexpr size_t kDefaultBytes = size_t{4} << 30;
  // The environment variable that sizes the arena in MiB (1 to kMaxMiB).
  static constexpr const char* kSizeEnv = "SQUASHLAB_ARENA_MB";
  static constexpr size_t kMaxMiB = size_t{1} << 20;

  // Before the first TakeChunk: the arena's size in MiB (0: the default,
  // SQUASHLAB_ARENA_MB if set, else sized to the address-space limit).
  // Returns false, changing nothing, once the arena is reserved.
  static bool SetSizeMiB(size_t mib);
  static void SetFailureHandler(SlabArenaFailureHandler handler);

  // 0 (and Contains false everywhere) until the first TakeChunk.
  static uintptr_t Size() { return size_.load(std::memory_order_acquire); }
  static uintptr_t Base() { return base_.load(std::memory_order_relaxed); }

  // A chunk of at least `bytes` (a multiple of kGranule): returned chunks
  // of that size first, else fresh arena (reserved by the first call).
  // Its shadow reads kShadowNever. Calls the failure handler when the
  // arena cannot be reserved or is exhausted.
  static char* TakeChunk(size_t bytes);
  // Gives a chunk back; its first `used` bytes are the only ones whose
  // shadow changed since TakeChunk, so only they are reset (a run that
  // carved a few objects does not pay for the whole chunk).
  static void ReturnChunk(char* chunk, size_t bytes, size_t used);
  // Shadow of [p, p+n): Unpoison makes it accessible (a partial last
  // granule as KASAN encodes it); Poison sets every granule it touches.
  // REQUIRES: p is 8-byte aligned; the caller owns the chunk.
  static void Unpoison(const void* p, size_t n);
  static void Poison(const void* p, size_t n, int8_t value);

  static bool Contains(uintptr_t a) {
    uintptr_t n = Size();  // first: see the class comment
    return a - Base() < n;
  }
  // The shadow of the arena's first granule. REQUIRES: Size() != 0.
  static int8_t* Shadow() { return shadow_.load(std::memory_order_relaxed); }
  // The shadow byte of an arena address. REQUIRES: Contains(a).
  static int8_t ShadowOf(uintptr_t a) {
    return __atomic_load_n(Shadow() + ((a - Base()) >> 3), __ATOMIC_RELAXED);
  }
  // Whether the byte at arena address a may be accessed.
  static bool ByteOk(uintptr_t a) {
    int8_t s = ShadowOf(a);
    return s == 0 || static_cast<int8_t>(a & 7) < s;
  }
  static constexpr size_t kGranule = 64 << 10;

 private:
  // Reserves the arena and its shadow and publishes them, or calls the
  // failure handler. REQUIRES: the arena's lock; Size() == 0.
  static void ReserveLocked();
  static std::atomic<uintptr_t> base_;
  static std::atomic<uintptr_t> size_;
  static std::atomic<int8_t*> shadow_;
};

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_KERNEL_SLAB_ARENA_H_
