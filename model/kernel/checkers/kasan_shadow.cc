// SPDX-License-Identifier: GPL-2.0-only
// This file implements the reservation of the inline KASAN shadow.
#include "model/kernel/checkers/kasan_shadow.h"

#include <sys/mman.h>

#include <cerrno>
#include <cstring>
#include <mutex>

#include "model/kernel/slab_arena.h"

namespace squashlab {
namespace {

std::once_flag g_once;
bool g_reserved = false;  // written once, under g_once
std::string g_why;

void Reserve() {
  if (!KasanInlineBuild()) {
    g_why = "this build's modules use the outlined checks";
    return;
  }
  void* want = reinterpret_cast<void*>(kKasanShadowOffset);
  void* got = mmap(
      want, kKasanShadowBytes, PROT_READ | PROT_WRITE,
      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
  if (got == MAP_FAILED || got != want) {
    g_why = std::string(
                "cannot reserve the KASAN shadow (16 TiB of "
                "address space, nothing behind it until touched): ") +
            (got == MAP_FAILED ? std::strerror(errno) : "range taken");
    if (got != MAP_FAILED) munmap(got, kKasanShadowBytes);
    return;
  }
  // The zero page: a NULL + offset access goes to the runtime (an oops).
  std::memset(KasanShadowOf(0), static_cast<uint8_t>(kShadowNever), 4096 / 8);
  g_reserved = true;
}

}  // namespace

bool KasanInlineBuild() {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  return false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
  return false;
#else
  return true;
#endif
#else
  return true;
#endif
}

bool ReserveKasanShadow(std::string* why) {
  std::call_once(g_once, Reserve);
  if (!g_reserved && why != nullptr) *why = g_why;
  return g_reserved;
}

bool KasanAddressOfShadow(uintptr_t s, uintptr_t* a) {
  const uintptr_t lo = kKasanShadowOffset + kKasanShadowBytes;
  const uintptr_t hi = kKasanShadowOffset + (~uintptr_t{0} >> 3);
  if (s < lo || s > hi) return false;
  *a = (s - kKasanShadowOffset) << 3;
  return true;
}

bool KasanShadowLoad(const FaultOperand& op, bool general_protection,
                     uintptr_t* a) {
  const bool from_offset = (op.has_base && op.base == kKasanShadowOffset) ||
                           (op.has_index && op.index == kKasanShadowOffset);
  const bool non_canonical = op.address >= (uintptr_t{1} << 47) &&
                             op.address < ~((uintptr_t{1} << 47) - 1);
  if (!from_offset && !(general_protection && non_canonical)) return false;
  return KasanAddressOfShadow(op.address, a);
}

}  // namespace squashlab
