// SPDX-License-Identifier: GPL-2.0-only
// This file implements the entry points a KASAN-instrumented compilation
// calls (-fsanitize=kernel-address with outlined checks: gcc's
// __asan_{load,store}{1,2,4,8,16,N}_noabort, clang's with our prefix
// __sl_kasan_, tools/build/copts.bzl) and the checked memcpy / memset /
// memmove of the header layer (model/linux's <linux/string.h> under
// SQUASHLAB_KASAN), all answered from the slab arena's shadow: the
// code under test needs no annotations for its loads and stores of
// kmalloc'd objects to be checked.
//
// Under userspace ASan (--config=asan) the executable is linked against
// libasan, which exports the gcc names too: with gcc's shared runtime the
// executable's definitions take precedence for the kernel-address code;
// clang's static runtime would clash, so clang builds use only the
// prefixed names. __asan_handle_no_return belongs to libasan there.
#include "model/kernel/checkers/kasan.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "model/kernel/checkers/symbolize.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SL_USERSPACE_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define SL_USERSPACE_ASAN 1
#endif
#if defined(SL_USERSPACE_ASAN) && defined(__clang__)
#define SL_DEFINE_ASAN_NAMES 0
#else
#define SL_DEFINE_ASAN_NAMES 1
#endif

namespace squashlab {
namespace {

// The kernel names the function that made the access.
[[gnu::noinline]] void Slow(uintptr_t a, size_t n, bool write, void* pc) {
  std::string fn = FunctionAt(reinterpret_cast<uintptr_t>(pc));
  if (fn.empty()) fn = "(unknown)";
  KasanReportAccess(a, n, write, fn.c_str());
}

inline void Check(uintptr_t a, size_t n, bool write, void* pc) {
  if (__builtin_expect(KasanAccessOk(a, n), 1)) return;
  Slow(a, n, write, pc);
}

}  // namespace
}  // namespace squashlab

#define SL_RET __builtin_return_address(0)
#define SL_SIZED(prefix, n)                      \
  void prefix##load##n##_noabort(uintptr_t a) {  \
    ::squashlab::Check(a, n, false, SL_RET);     \
  }                                              \
  void prefix##store##n##_noabort(uintptr_t a) { \
    ::squashlab::Check(a, n, true, SL_RET);      \
  }
#define SL_ALL(prefix)                                   \
  SL_SIZED(prefix, 1)                                    \
  SL_SIZED(prefix, 2)                                    \
  SL_SIZED(prefix, 4)                                    \
  SL_SIZED(prefix, 8)                                    \
  SL_SIZED(prefix, 16)                                   \
  void prefix##loadN_noabort(uintptr_t a, size_t n) {    \
    if (n != 0) ::squashlab::Check(a, n, false, SL_RET); \
  }                                                      \
  void prefix##storeN_noabort(uintptr_t a, size_t n) {   \
    if (n != 0) ::squashlab::Check(a, n, true, SL_RET);  \
  }

// An inline-instrumented module (kasan_shadow.h) calls these only when the
// shadow byte says the access is bad; the slow path decides as for an
// outlined check (a partial granule it may still find fine).
#define SL_REPORT(n)                                   \
  void __asan_report_load##n##_noabort(uintptr_t a) {  \
    ::squashlab::Slow(a, n, false, SL_RET);            \
  }                                                    \
  void __asan_report_store##n##_noabort(uintptr_t a) { \
    ::squashlab::Slow(a, n, true, SL_RET);             \
  }

extern "C" {

SL_ALL(__sl_kasan_)
#if SL_DEFINE_ASAN_NAMES
SL_ALL(__asan_)
#endif
#if !defined(SL_USERSPACE_ASAN)
SL_REPORT(1)
SL_REPORT(2)
SL_REPORT(4)
SL_REPORT(8)
SL_REPORT(16)
void __asan_report_load_n_noabort(uintptr_t a, size_t n) {
  if (n != 0) ::squashlab::Slow(a, n, false, SL_RET);
}
void __asan_report_store_n_noabort(uintptr_t a, size_t n) {
  if (n != 0) ::squashlab::Slow(a, n, true, SL_RET);
}
#endif
#if !defined(SL_USERSPACE_ASAN)
// Unpoisons the stack before a noreturn call; the model poisons no stack.
void __asan_handle_no_return(void) {}
// Bracket a translation unit's dynamic initialisers (init-order checking
// of globals, which the model does not do).
void __asan_before_dynamic_init(const char*) {}
void __asan_after_dynamic_init(void) {}
#endif

// The header layer's memcpy & co under SQUASHLAB_KASAN (the kernel's
// KASAN checks both ranges of its own memcpy the same way). A copy of no
// bytes is nothing, whatever the pointers: the kernel's lib/zlib_inflate
// copies 0 bytes from a NULL next_out (zlib_updatewindow), which the C
// library's memcpy may not be given.
void* sl_kasan_memcpy(void* d, const void* s, size_t n) {
  if (n == 0) return d;
  ::squashlab::Check(reinterpret_cast<uintptr_t>(s), n, false, SL_RET);
  ::squashlab::Check(reinterpret_cast<uintptr_t>(d), n, true, SL_RET);
  return std::memcpy(d, s, n);
}
void* sl_kasan_memmove(void* d, const void* s, size_t n) {
  if (n == 0) return d;
  ::squashlab::Check(reinterpret_cast<uintptr_t>(s), n, false, SL_RET);
  ::squashlab::Check(reinterpret_cast<uintptr_t>(d), n, true, SL_RET);
  return std::memmove(d, s, n);
}
void* sl_kasan_memset(void* d, int c, size_t n) {
  if (n == 0) return d;
  ::squashlab::Check(reinterpret_cast<uintptr_t>(d), n, true, SL_RET);
  return std::memset(d, c, n);
}

}  // extern "C"
