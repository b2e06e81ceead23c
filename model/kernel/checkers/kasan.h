// SPDX-License-Identifier: GPL-2.0-only
// This file implements the access check of the model's KASAN: is
// [a, a+n) a live part of a slab object, and if not, the report the kernel
// would print. The compiler-inserted calls of the code under test
// (kasan.cc) and the kernel layer's own kasan_check_read/write (slab.h)
// both end here.
#ifndef SQUASHLAB_MODEL_KERNEL_CHECKERS_KASAN_H_
#define SQUASHLAB_MODEL_KERNEL_CHECKERS_KASAN_H_

#include <cstddef>
#include <cstdint>

#include "model/kernel/slab_arena.h"

namespace squashlab {

// Canonical user-half addresses above the zero page: anything else
// (NULL + offset, POISON_FREE / POISON_INUSE pointers, kernel-half
// freelist pointers) would fault in the host; the model reports it as the
// kernel's oops instead.
inline bool KasanPlainAddress(uintptr_t a) {
  return a - 4096 < (uintptr_t{1} << 47) - 4096;
}

// The hot path: every granule [a, a+n) touches is fully accessible, or a
// is outside the arena at a plain address.
inline bool KasanAccessOk(uintptr_t a, size_t n) {
  const uintptr_t size = SlabArena::Size();  // first: slab_arena.h
  uintptr_t off = a - SlabArena::Base();
  if (off >= size) return KasanPlainAddress(a);
  const int8_t* s = SlabArena::Shadow();
  uintptr_t last = (off + n - 1) >> 3;
  for (uintptr_t g = off >> 3; g <= last; g++)
    if (__atomic_load_n(s + g, __ATOMIC_RELAXED) != 0) return false;
  return true;
}

// The slow path, in the current run's kernel (none: nothing to do):
// a faulting address is the oops CheckPtr prints, an arena address whose
// bytes are not all accessible is KASAN's report on a debug kernel, or the
// MMU's on never-allocated slab memory on a production one. Returns when
// the access is fine after all (a partial granule, another run's memory).
void KasanReportAccess(uintptr_t a, size_t n, bool write, const char* fn);

inline void KasanCheckAccess(uintptr_t a, size_t n, bool write,
                             const char* fn) {
  if (n == 0 || KasanAccessOk(a, n)) return;
  KasanReportAccess(a, n, write, fn);
}

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_KERNEL_CHECKERS_KASAN_H_
