// SPDX-License-Identifier: GPL-2.0-only
// This file implements the slab arena: one address range reserved for the
// whole process, from which every run's heap (slab.h) takes its chunks, and
// its KASAN-style shadow (one byte per 8 bytes of arena, as the kernel's
// generic KASAN). A load or store the compiler instrumented (kasan.cc) asks
// only "in the arena? then is its shadow byte 0?", a subtraction, a compare
// and a byte load.
//
// Thread-safety: chunks are taken and returned under the arena's own lock;
// the shadow is read without one (relaxed atomic bytes) and written only by
// the heap that owns the chunk, under its kernel's tree_lock.
#ifndef SQUASHLAB_MODEL_KERNEL_SLAB_ARENA_H_
#define SQUASHLAB_MODEL_KERNEL_SLAB_ARENA_H_

#include <cstddef>
#include <cstdint>

namespace squashlab {

// Shadow values (one per 8-byte granule): 0 accessible; 1..7 the first k
// bytes accessible; the rest are KASAN's poison classes.
inline constexpr int8_t kShadowRedzone = static_cast<int8_t>(0xfc);
inline constexpr int8_t kShadowFreed = static_cast<int8_t>(0xfb);
// Arena memory no object was ever carved from (a chunk's unused tail).
inline constexpr int8_t kShadowNever = static_cast<int8_t>(0xfe);

struct SlabArena {
  // Set once, before main, never changed: the fast path reads them plainly.
  static uintptr_t base;
  static uintptr_t size;
  static int8_t* shadow;

  // A chunk of at least `bytes` (a multiple of kGranule): returned chunks
  // of that size first, else fresh arena. Its shadow reads kShadowNever.
  // Aborts when the arena is exhausted.
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

  static bool Contains(uintptr_t a) { return a - base < size; }
  // The shadow byte of an arena address. REQUIRES: Contains(a).
  static int8_t ShadowOf(uintptr_t a) {
    return __atomic_load_n(shadow + ((a - base) >> 3), __ATOMIC_RELAXED);
  }
  // Whether the byte at arena address a may be accessed.
  static bool ByteOk(uintptr_t a) {
    int8_t s = ShadowOf(a);
    return s == 0 || static_cast<int8_t>(a & 7) < s;
  }
  static constexpr size_t kGranule = 64 << 10;
};

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_KERNEL_SLAB_ARENA_H_
