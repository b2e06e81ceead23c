// SPDX-License-Identifier: GPL-2.0-only
// This file implements decoding a faulting byte or word load's operand.
#include "model/sched/fault_operand.h"

namespace squashlab {

bool ByteLoadOperand(const uint8_t* code, const uint64_t regs[16],
                     FaultOperand* out) {
#if defined(__x86_64__)
  const uint8_t* p = code;
  // Legacy prefixes: operand size (a word compare), address size, segment.
  for (int i = 0; i < 4; i++) {
    const uint8_t b = *p;
    if (b == 0x66 || b == 0x67 || b == 0x2e || b == 0x3e || b == 0x26 ||
        b == 0x36 || b == 0x64 || b == 0x65)
      p++;
    else
      break;
  }
  uint8_t rex = 0;
  if ((*p & 0xf0) == 0x40) rex = *p++;
  // The opcodes with a ModRM memory source a shadow check uses: mov r8,
  // cmp and test with a register, cmp r/m with an immediate (group 1 /7),
  // and the zero- and sign-extending byte and word loads.
  const uint8_t op = *p++;
  bool group1 = false;
  if (op == 0x0f) {
    const uint8_t op2 = *p++;
    if (op2 != 0xb6 && op2 != 0xb7 && op2 != 0xbe && op2 != 0xbf) return false;
  } else if (op == 0x80 || op == 0x81 || op == 0x83) {
    group1 = true;
  } else if (op != 0x8a && op != 0x8b && op != 0x38 && op != 0x39 &&
             op != 0x3a && op != 0x3b && op != 0x84 && op != 0x85) {
    return false;
  }
  const uint8_t modrm = *p++;
  const int mod = modrm >> 6;
  const int reg = (modrm >> 3) & 7;
  int rm = modrm & 7;
  if (mod == 3) return false;            // a register operand
  if (group1 && reg != 7) return false;  // not a compare
  FaultOperand o;
  uint64_t ea = 0;
  if (rm == 4) {  // SIB
    const uint8_t sib = *p++;
    const int scale = sib >> 6;
    const int index = ((sib >> 3) & 7) | ((rex & 2) << 2);
    const int base = (sib & 7) | ((rex & 1) << 3);
    if (index != 4) {  // rsp: no index
      o.has_index = true;
      o.index = regs[index];
      ea += regs[index] << scale;
    }
    if ((sib & 7) == 5 && mod == 0) {  // no base: a 32-bit displacement
      int32_t disp;
      __builtin_memcpy(&disp, p, 4);
      o.address = ea + static_cast<int64_t>(disp);
      *out = o;
      return true;
    }
    o.has_base = true;
    o.base = regs[base];
    ea += regs[base];
  } else {
    if (rm == 5 && mod == 0) return false;  // RIP-relative
    rm |= (rex & 1) << 3;
    o.has_base = true;
    o.base = regs[rm];
    ea = regs[rm];
  }
  if (mod == 1) {
    ea += static_cast<int64_t>(static_cast<int8_t>(*p));
  } else if (mod == 2) {
    int32_t disp;
    __builtin_memcpy(&disp, p, 4);
    ea += static_cast<int64_t>(disp);
  }
  o.address = ea;
  *out = o;
  return true;
#else
  (void)code;
  (void)regs;
  (void)out;
  return false;
#endif
}

}  // namespace squashlab
