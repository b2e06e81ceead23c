// SPDX-License-Identifier: GPL-2.0-only
/*
 * This file implements memcpy, memmove and memset for a module compiled
 * under KASAN, as a KASAN kernel's own (mm/kasan/shadow.c) are: both ranges
 * are checked, in the name of the caller, before the copy. The compiler
 * emits calls to them for __builtin_memcpy & co of a size it does not
 * expand (lib/zstd's ZSTD_memcpy) and for large structure copies; the
 * module binds them to these (-Bsymbolic). The checks are the bridge's.
 */
#include <stddef.h>

#ifdef SQUASHLAB_KASAN
void *sl_kasan_memcpy_at(void *d, const void *s, size_t n, void *caller);
void *sl_kasan_memmove_at(void *d, const void *s, size_t n, void *caller);
void *sl_kasan_memset_at(void *d, int c, size_t n, void *caller);

void *memcpy(void *d, const void *s, size_t n) {
  return sl_kasan_memcpy_at(d, s, n, __builtin_return_address(0));
}
void *memmove(void *d, const void *s, size_t n) {
  return sl_kasan_memmove_at(d, s, n, __builtin_return_address(0));
}
void *memset(void *d, int c, size_t n) {
  return sl_kasan_memset_at(d, c, n, __builtin_return_address(0));
}
#endif
