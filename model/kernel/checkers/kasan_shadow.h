// SPDX-License-Identifier: GPL-2.0-only
// This file implements the KASAN shadow of the whole user address space at
// a fixed offset, which the real kernel's modules read inline: a KASAN
// kernel built with CONFIG_KASAN_INLINE checks each load and store as
// `*(s8 *)((addr >> 3) + KASAN_SHADOW_OFFSET)` in the instruction stream
// (mm/kasan/kasan.h, kasan_mem_to_shadow; scripts/Makefile.kasan), and
// calls the runtime only when that byte says the access is bad. The lab's
// modules are compiled the same way (tools/build/copts.bzl
// KASAN_MODULE_COPTS) with this offset.
//
// One reservation, MAP_NORESERVE, covers the shadow of [0, 2^47): pages
// never written read as zero (accessible); the slab arena's shadow is its
// window (slab_arena.cc), and the shadow of the zero page is poisoned so a
// NULL + offset access reaches the runtime, which reports the kernel's
// oops. The shadow load for a non-canonical or kernel-half address faults,
// as the kernel's does (its "general protection fault, probably for
// non-canonical address"): the task's fault landing recovers the address
// from the faulting load's operand (KasanAddressOfShadow).
//
// The port variants keep outlined checks (kasan.cc): they run without this
// reservation, under an address-space limit too.
#ifndef SQUASHLAB_MODEL_KERNEL_CHECKERS_KASAN_SHADOW_H_
#define SQUASHLAB_MODEL_KERNEL_CHECKERS_KASAN_SHADOW_H_

#include <cstdint>
#include <string>

#include "model/sched/fault_operand.h"

namespace squashlab {

// The shadow byte of address a is at kKasanShadowOffset + (a >> 3)
// (tools/build/copts.bzl KASAN_SHADOW_OFFSET): 15 TiB, above a process's
// low mappings (a PIE binary and its heap sit near 2^46.4, mmap's
// top-down area near 2^47) with room for the shadow below them, and not a
// power of two (clang would OR it in, which past 2^47 loses the address).
inline constexpr uintptr_t kKasanShadowOffset = uintptr_t{0xf} << 40;
// The reservation: the shadow of every canonical user address.
inline constexpr uintptr_t kKasanShadowBytes = uintptr_t{1} << 44;

// Whether this build's modules check inline (true but under a userspace
// sanitizer, whose own shadow owns that range: there they call the
// outlined checks).
bool KasanInlineBuild();

// Reserves the shadow once (later calls return the first answer); false,
// with the host's reason in *why, when it cannot be (an address-space
// limit, the range taken).
bool ReserveKasanShadow(std::string* why);
// The shadow byte of a. REQUIRES: ReserveKasanShadow() true, a < 2^47.
inline int8_t* KasanShadowOf(uintptr_t a) {
  return reinterpret_cast<int8_t*>(kKasanShadowOffset + (a >> 3));
}
// Whether s is where the shadow of some address lies beyond the
// reservation (an address at or above 2^47: non-canonical or kernel-half),
// and if so that address's granule in *a.
bool KasanAddressOfShadow(uintptr_t s, uintptr_t* a);
// Whether the faulting read `op` is an inline check's shadow load for an
// address past the reservation, and if so that address's granule in *a:
// its operand formed from a register holding the shadow offset (gcc keeps
// the offset in a register of its own: it does not fit a displacement),
// or a general protection fault (`general_protection`) on a shadow address
// that is itself non-canonical (clang adds the offset in first). A load
// whose shadow address is canonical but unmapped (an address in [2^47,
// 2^50)) and not formed as gcc forms it stays a paging request at the
// shadow address.
bool KasanShadowLoad(const FaultOperand& op, bool general_protection,
                     uintptr_t* a);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_KERNEL_CHECKERS_KASAN_SHADOW_H_
