// SPDX-License-Identifier: GPL-2.0-only
// This file implements reading the memory operand of the instruction a
// task faulted on: for the byte and word loads and compares an inline
// KASAN check makes of its shadow (movzx, movsx, mov, cmp, test), the
// address the instruction meant to read, from its ModRM/SIB encoding and
// the registers at the fault. A general protection fault reports no
// address (si_addr is 0); this is where the kernel layer finds which
// address's shadow the check read (model/kernel/checkers/kasan_shadow.h).
#ifndef SQUASHLAB_MODEL_SCHED_FAULT_OPERAND_H_
#define SQUASHLAB_MODEL_SCHED_FAULT_OPERAND_H_

#include <cstdint>

namespace squashlab {

// The memory operand of a faulting read: its effective address and the
// values of the registers that formed it.
struct FaultOperand {
  uintptr_t address = 0;
  bool has_base = false;
  uint64_t base = 0;
  bool has_index = false;
  uint64_t index = 0;  // unscaled
};

// The memory operand of the instruction at `code`, given the 16 general
// registers in x86-64 encoding order (rax, rcx, rdx, rbx, rsp, rbp, rsi,
// rdi, r8..r15). False for an instruction that is not one of the byte or
// word reads above, or whose operand is a register or RIP-relative.
// x86-64 only (false elsewhere).
bool ByteLoadOperand(const uint8_t* code, const uint64_t regs[16],
                     FaultOperand* out);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_SCHED_FAULT_OPERAND_H_
