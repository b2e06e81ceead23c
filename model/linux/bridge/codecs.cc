// SPDX-License-Identifier: GPL-2.0-only
// This file implements the bridge's side of the kernel's own decompressors
// (lib/zlib_inflate, lib/zstd, lib/xz, lib/lz4, lib/lzo of the module's
// package, compiled into the module): the end of each decoding call
// fs/squashfs makes through the header layer (sl_decompressed: the output
// charged to the run in simulate mode, then a scheduling point, as a
// preemptible kernel's inflate loop can be preempted between output pages)
// and lib/crc32.c's crc32_le, which lib/xz checks its streams with.
#include <zlib.h>

#include <cstddef>
#include <cstdint>

#include "model/kernel/checkers/kasan.h"
#include "model/kernel/kernel.h"

extern "C" {

void sl_decompressed(unsigned long bytes, const char* codec) {
  squashlab::model_charge(squashlab::CostKind::kDecompressByte, bytes, codec);
  squashlab::model_point("inflate");
}

// The kernel's crc32_le neither inverts the CRC before nor after; zlib's
// crc32 does both. A KASAN kernel instruments lib/crc32.c: the bytes it
// reads are checked.
uint32_t crc32_le(uint32_t crc, const void* p, size_t len) {
  squashlab::KasanCheckAccess(reinterpret_cast<uintptr_t>(p), len, false,
                              "crc32_le");
  return ~static_cast<uint32_t>(crc32(~crc & 0xffffffffu,
                                      static_cast<const Bytef*>(p),
                                      static_cast<uInt>(len)));
}

}  // extern "C"
