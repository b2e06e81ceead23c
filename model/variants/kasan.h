// SPDX-License-Identifier: GPL-2.0-only
// This file implements KASAN-style instrumented loads and stores for the
// variants' own kmalloc'd structures (what the compiler inserts in a KASAN
// kernel): every access to a field first checks that the object is live.
#ifndef SQUASHLAB_MODEL_VARIANTS_KASAN_H_
#define SQUASHLAB_MODEL_VARIANTS_KASAN_H_

#include "model/kernel/slab.h"

namespace squashlab {

// Returns the field after checking that its bytes lie in no freed object
// (and that the containing pointer was not NULL or poison).
template <typename T>
T& kasan_load(T& field, const char* caller = __builtin_FUNCTION()) {
  kasan_check_read(&field, sizeof field, caller);
  return field;
}
template <typename T>
T& kasan_store(T& field, const char* caller = __builtin_FUNCTION()) {
  kasan_check_write(&field, sizeof field, caller);
  return field;
}

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_VARIANTS_KASAN_H_
