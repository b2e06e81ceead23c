// SPDX-License-Identifier: GPL-2.0-only
// This file implements the entry points of the compiler's ThreadSanitizer
// instrumentation for the code under test of a KCSAN kernel (kcsan.h), as
// kernel/kcsan/core.c implements them for the kernel: plain and unaligned
// reads and writes, volatile ones (READ_ONCE / WRITE_ONCE: marked), the
// atomic operations with their memory orders (performed here, and marked;
// a release order releases the location's clock, an acquire order
// acquires it), function entry and exit. The module's objects name them
// __sl_kcsan_* (model/linux/source_build.cc renames gcc's __tsan_* calls),
// so that they never meet a userspace ThreadSanitizer's own.
#include <cstddef>
#include <cstdint>

#include "model/kernel/checkers/kcsan.h"
#include "model/kernel/kernel.h"

namespace squashlab {
namespace {

inline Kcsan* Detector() {
  Kernel* k = Kernel::CurrentOrNull();
  return k != nullptr ? k->kcsan() : nullptr;
}

inline void Access(const volatile void* p, size_t size, unsigned type,
                   void* pc) {
  if (Kcsan* d = Detector())
    d->Access(reinterpret_cast<uintptr_t>(p), size, type,
              reinterpret_cast<uintptr_t>(pc));
}

// The tsan ABI's memory orders: relaxed, consume, acquire, release,
// acq_rel, seq_cst.
bool Acquires(int mo) { return mo == 1 || mo == 2 || mo == 4 || mo == 5; }
bool Releases(int mo) { return mo == 3 || mo == 4 || mo == 5; }

// An atomic operation on p: its access, and its order's synchronisation.
void Atomic(const volatile void* p, size_t size, unsigned type, int mo,
            void* pc) {
  Kcsan* d = Detector();
  if (d == nullptr) return;
  const void* key = const_cast<const void*>(p);
  if (Acquires(mo) && !(type & kKcsanWrite && !(type & kKcsanCompound)))
    d->Acquire(key);
  d->Access(reinterpret_cast<uintptr_t>(p), size, type | kKcsanMarked,
            reinterpret_cast<uintptr_t>(pc));
  if (Releases(mo) && (type & kKcsanWrite)) d->Release(key);
}

}  // namespace
}  // namespace squashlab

using squashlab::Access;
using squashlab::Atomic;
using squashlab::kKcsanCompound;
using squashlab::kKcsanMarked;
using squashlab::kKcsanRead;
using squashlab::kKcsanWrite;

#define SL_PC __builtin_return_address(0)

extern "C" {

void __sl_kcsan_init(void) {}
void __sl_kcsan_func_entry(void* caller) {
  if (squashlab::Kcsan* d = squashlab::Detector())
    d->FuncEntry(reinterpret_cast<uintptr_t>(caller));
}
void __sl_kcsan_func_exit(void) {
  if (squashlab::Kcsan* d = squashlab::Detector()) d->FuncExit();
}
void __sl_kcsan_vptr_update(void**, void*) {}
void __sl_kcsan_read_range(void* p, size_t n) {
  Access(p, n, kKcsanRead, SL_PC);
}
void __sl_kcsan_write_range(void* p, size_t n) {
  Access(p, n, kKcsanWrite, SL_PC);
}

#define SL_PLAIN(n)                                                       \
  void __sl_kcsan_read##n(void* p) { Access(p, n, kKcsanRead, SL_PC); }   \
  void __sl_kcsan_write##n(void* p) { Access(p, n, kKcsanWrite, SL_PC); } \
  void __sl_kcsan_unaligned_read##n(void* p) {                            \
    Access(p, n, kKcsanRead, SL_PC);                                      \
  }                                                                       \
  void __sl_kcsan_unaligned_write##n(void* p) {                           \
    Access(p, n, kKcsanWrite, SL_PC);                                     \
  }                                                                       \
  void __sl_kcsan_volatile_read##n(void* p) {                             \
    Access(p, n, kKcsanRead | kKcsanMarked, SL_PC);                       \
  }                                                                       \
  void __sl_kcsan_volatile_write##n(void* p) {                            \
    Access(p, n, kKcsanWrite | kKcsanMarked, SL_PC);                      \
  }                                                                       \
  void __sl_kcsan_unaligned_volatile_read##n(void* p) {                   \
    Access(p, n, kKcsanRead | kKcsanMarked, SL_PC);                       \
  }                                                                       \
  void __sl_kcsan_unaligned_volatile_write##n(void* p) {                  \
    Access(p, n, kKcsanWrite | kKcsanMarked, SL_PC);                      \
  }
SL_PLAIN(1)
SL_PLAIN(2)
SL_PLAIN(4)
SL_PLAIN(8)
SL_PLAIN(16)

// The atomics, performed sequentially consistent (a superset of every
// order), their order's synchronisation recorded.
#define SL_RMW(bits, T, name, op)                                  \
  T __sl_kcsan_atomic##bits##_##name(volatile T* a, T v, int mo) { \
    Atomic(a, sizeof(T), kKcsanWrite | kKcsanCompound, mo, SL_PC); \
    return op(a, v, __ATOMIC_SEQ_CST);                             \
  }
#define SL_ATOMICS(bits, T)                                                   \
  T __sl_kcsan_atomic##bits##_load(const volatile T* a, int mo) {             \
    Atomic(a, sizeof(T), kKcsanRead, mo, SL_PC);                              \
    return __atomic_load_n(a, __ATOMIC_SEQ_CST);                              \
  }                                                                           \
  void __sl_kcsan_atomic##bits##_store(volatile T* a, T v, int mo) {          \
    Atomic(a, sizeof(T), kKcsanWrite, mo, SL_PC);                             \
    __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                 \
  }                                                                           \
  SL_RMW(bits, T, exchange, __atomic_exchange_n)                              \
  SL_RMW(bits, T, fetch_add, __atomic_fetch_add)                              \
  SL_RMW(bits, T, fetch_sub, __atomic_fetch_sub)                              \
  SL_RMW(bits, T, fetch_and, __atomic_fetch_and)                              \
  SL_RMW(bits, T, fetch_or, __atomic_fetch_or)                                \
  SL_RMW(bits, T, fetch_xor, __atomic_fetch_xor)                              \
  SL_RMW(bits, T, fetch_nand, __atomic_fetch_nand)                            \
  int __sl_kcsan_atomic##bits##_compare_exchange_strong(                      \
      volatile T* a, T* expected, T desired, int mo, int) {                   \
    Atomic(a, sizeof(T), kKcsanWrite | kKcsanCompound, mo, SL_PC);            \
    return __atomic_compare_exchange_n(a, expected, desired, false,           \
                                       __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);   \
  }                                                                           \
  int __sl_kcsan_atomic##bits##_compare_exchange_weak(                        \
      volatile T* a, T* expected, T desired, int mo, int) {                   \
    Atomic(a, sizeof(T), kKcsanWrite | kKcsanCompound, mo, SL_PC);            \
    return __atomic_compare_exchange_n(a, expected, desired, false,           \
                                       __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);   \
  }                                                                           \
  T __sl_kcsan_atomic##bits##_compare_exchange_val(volatile T* a, T expected, \
                                                   T desired, int mo, int) {  \
    Atomic(a, sizeof(T), kKcsanWrite | kKcsanCompound, mo, SL_PC);            \
    __atomic_compare_exchange_n(a, &expected, desired, false,                 \
                                __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);          \
    return expected;                                                          \
  }
SL_ATOMICS(8, uint8_t)
SL_ATOMICS(16, uint16_t)
SL_ATOMICS(32, uint32_t)
SL_ATOMICS(64, uint64_t)

void __sl_kcsan_atomic_thread_fence(int) {
#if defined(__SANITIZE_THREAD__) && !defined(__clang__)
  // gcc's ThreadSanitizer does not model a fence (-Wtsan): a full barrier
  // through a read-modify-write it does model.
  static int fence_word;
  __atomic_fetch_add(&fence_word, 0, __ATOMIC_SEQ_CST);
#else
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}
void __sl_kcsan_atomic_signal_fence(int) {}

// data_race(expr) of the header layer: the accesses of expr are not
// checked.
void sl_kcsan_disable_current(void) {
  if (squashlab::Kcsan* d = squashlab::Detector()) d->Disable(true);
}
void sl_kcsan_enable_current(void) {
  if (squashlab::Kcsan* d = squashlab::Detector()) d->Disable(false);
}

}  // extern "C"
