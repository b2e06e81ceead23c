// SPDX-License-Identifier: GPL-2.0-only
// This file implements the checked memcpy, memmove and memset that a
// module's own mem* functions call (include/squashlab/kasan_mem.c): both
// ranges are checked against the slab arena's shadow as KASAN's memcpy
// checks them, a bad one reported in the name of the function that called
// memcpy, and then the bytes are copied.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "model/kernel/checkers/kasan.h"
#include "model/kernel/checkers/symbolize.h"

namespace {

void Check(const void* p, size_t n, bool write, void* caller) {
  const auto a = reinterpret_cast<uintptr_t>(p);
  if (squashlab::KasanAccessOk(a, n)) return;
  std::string fn = squashlab::FunctionAt(reinterpret_cast<uintptr_t>(caller));
  if (fn.empty()) fn = "(unknown)";
  squashlab::KasanReportAccess(a, n, write, fn.c_str());
}

}  // namespace

extern "C" {

// A copy of no bytes is nothing, whatever the pointers (the kernel's
// memcpy is given NULL with 0 bytes; the C library's may not be).
void* sl_kasan_memcpy_at(void* d, const void* s, size_t n, void* caller) {
  if (n == 0) return d;
  Check(s, n, false, caller);
  Check(d, n, true, caller);
  return std::memcpy(d, s, n);
}

void* sl_kasan_memmove_at(void* d, const void* s, size_t n, void* caller) {
  if (n == 0) return d;
  Check(s, n, false, caller);
  Check(d, n, true, caller);
  return std::memmove(d, s, n);
}

void* sl_kasan_memset_at(void* d, int c, size_t n, void* caller) {
  if (n == 0) return d;
  Check(d, n, true, caller);
  return std::memset(d, c, n);
}

}  // extern "C"
