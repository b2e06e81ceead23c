// SPDX-License-Identifier: GPL-2.0-only
// This file implements kmemleak's scan (mm/kmemleak.c, kmemleak_scan): an
// allocated object is a suspected leak when no pointer reaches it, neither
// from the roots (the data and bss of the code under test, registered when
// a module is loaded) nor from an object so reached. A pointer anywhere
// inside an object counts, as kmemleak's lookup of an alias does.
#ifndef SQUASHLAB_MODEL_KERNEL_CHECKERS_KMEMLEAK_H_
#define SQUASHLAB_MODEL_KERNEL_CHECKERS_KMEMLEAK_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace squashlab {

struct KmemleakObject {
  uintptr_t base = 0;
  size_t size = 0;
};

// Adds [lo, lo + len) to the roots every scan reads (thread-safe; a range
// added twice is read once). For a module: its writable load segments.
void KmemleakAddRoot(uintptr_t lo, size_t len);

// The indices into `objects` (live objects, disjoint) that nothing reaches
// from the roots, in the order given.
std::vector<size_t> KmemleakUnreferenced(
    const std::vector<KmemleakObject>& objects);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_KERNEL_CHECKERS_KMEMLEAK_H_
