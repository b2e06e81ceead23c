// SPDX-License-Identifier: GPL-2.0-only
// This file implements the tests of the inline KASAN checks the real
// kernel's modules are compiled with (model/kernel/checkers/kasan_shadow.h): a
// bad load or store of a slab object, a NULL + offset, a POISON_FREE, a
// POISON_INUSE and a kernel-half pointer each end the task with the report
// an outlined check gives, and the decoding of the faulting shadow load
// that recovers an address past 2^47 (model/sched/fault_operand.h).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "model/kernel/checkers/kasan_shadow.h"
#include "model/kernel/slab.h"
#include "model/kernel/testing/contract.h"
#include "model/sched/fault_operand.h"
#include "model/sched/task_fault.h"

extern "C" {
unsigned char sl_probe_load1(const unsigned char* p);
void sl_probe_store8(unsigned long* p);
}

namespace squashlab {
namespace {

using testing::RunTask;

std::string Title(const Report& r) { return r.title; }

class InlineKasan : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!TaskFaultLandingEnabled())
      GTEST_SKIP() << "no fault landing in this build (ThreadSanitizer)";
    std::string why;
    if (KasanInlineBuild()) {
      ASSERT_TRUE(ReserveKasanShadow(&why)) << why;
    }
  }
};

TEST_F(InlineKasan, ShadowCoversTheUserHalfAndPoisonsTheZeroPage) {
  if (!KasanInlineBuild()) GTEST_SKIP() << "outlined checks in this build";
  EXPECT_NE(*KasanShadowOf(0), 0);
  EXPECT_NE(*KasanShadowOf(4095), 0);
  EXPECT_EQ(*KasanShadowOf(4096), 0);
  int on_stack = 0;
  EXPECT_EQ(*KasanShadowOf(reinterpret_cast<uintptr_t>(&on_stack)), 0);
  uintptr_t a = 0;
  EXPECT_FALSE(KasanAddressOfShadow(
      reinterpret_cast<uintptr_t>(KasanShadowOf(0x7fffffffe000)), &a));
  ASSERT_TRUE(
      KasanAddressOfShadow(kKasanShadowOffset + (kPoisonFreePtr >> 3), &a));
  EXPECT_EQ(a, kPoisonFreePtr & ~uintptr_t{7});
  // A shadow load as gcc forms it (the offset in a register of its own),
  // as clang does (one register, a general protection fault), and a plain
  // access to an address of the user half, which is neither.
  FaultOperand gcc_load;
  gcc_load.has_base = gcc_load.has_index = true;
  gcc_load.base = kPoisonFreePtr >> 3;
  gcc_load.index = kKasanShadowOffset;
  gcc_load.address = gcc_load.base + gcc_load.index;
  EXPECT_TRUE(KasanShadowLoad(gcc_load, true, &a));
  EXPECT_EQ(a, kPoisonFreePtr & ~uintptr_t{7});
  FaultOperand clang_load;
  clang_load.has_base = true;
  clang_load.base = clang_load.address =
      kKasanShadowOffset + (kPoisonInusePtr >> 3);
  EXPECT_TRUE(KasanShadowLoad(clang_load, true, &a));
  EXPECT_EQ(a, kPoisonInusePtr & ~uintptr_t{7});
  EXPECT_FALSE(KasanShadowLoad(clang_load, false, &a));
  FaultOperand plain;
  plain.has_base = true;
  plain.base = plain.address = 0x7f0012345000;
  EXPECT_FALSE(KasanShadowLoad(plain, false, &a));
  EXPECT_FALSE(KasanShadowLoad(plain, true, &a));
}

TEST_F(InlineKasan, UseAfterFreeOfASlabObject) {
  Report r = RunTask([] {
    auto* p = static_cast<unsigned char*>(kmalloc(64, GFP_KERNEL));
    kfree(p);
    sl_probe_load1(p + 8);
  });
  EXPECT_NE(Title(r).find("BUG: KASAN: use-after-free in sl_probe_load1"),
            std::string::npos)
      << r.ToString();
}

TEST_F(InlineKasan, StorePastASlabObject) {
  Report r = RunTask([] {
    auto* p = static_cast<unsigned long*>(kmalloc(60, GFP_KERNEL));
    sl_probe_store8(p + 7);  // bytes 56..63 of a 60-byte object
  });
  EXPECT_NE(Title(r).find("BUG: KASAN: slab-out-of-bounds in sl_probe_store8"),
            std::string::npos)
      << r.ToString();
}

TEST_F(InlineKasan, InBoundsAccessesAreSilent) {
  Report r = RunTask([] {
    auto* p = static_cast<unsigned long*>(kmalloc(64, GFP_KERNEL));
    sl_probe_store8(p + 7);
    sl_probe_load1(reinterpret_cast<unsigned char*>(p) + 63);
    kfree(p);
  });
  EXPECT_SILENT(r);
}

TEST_F(InlineKasan, NullPlusOffsetIsANullDereference) {
  Report r = RunTask(
      [] { sl_probe_load1(reinterpret_cast<const unsigned char*>(0x18)); });
  EXPECT_NE(Title(r).find("NULL pointer dereference in sl_probe_load1"),
            std::string::npos)
      << r.ToString();
}

// Past 2^47 the inline check's own shadow load faults (a general
// protection fault for a non-canonical address): the report is the one
// for the pointer, not for its shadow.
TEST_F(InlineKasan, PoisonFreePointer) {
  Report r = RunTask([] {
    sl_probe_load1(reinterpret_cast<const unsigned char*>(kPoisonFreePtr));
  });
  EXPECT_NE(Title(r).find("POISON_FREE pointer) in sl_probe_load1"),
            std::string::npos)
      << r.ToString();
}

TEST_F(InlineKasan, PoisonInusePointer) {
  Report r = RunTask([] {
    sl_probe_store8(reinterpret_cast<unsigned long*>(kPoisonInusePtr + 16));
  });
  EXPECT_NE(Title(r).find("KMSAN: uninit-value in sl_probe_store8"),
            std::string::npos)
      << r.ToString();
}

TEST_F(InlineKasan, KernelHalfPointerIsAPagingRequest) {
  Report r = RunTask([] {
    sl_probe_load1(
        reinterpret_cast<const unsigned char*>(0xffff888012345678ULL));
  });
  EXPECT_NE(Title(r).find("paging request in sl_probe_load1"),
            std::string::npos)
      << r.ToString();
}

// The operands of the shadow loads gcc and clang emit, and what is not one.
TEST(FaultOperand, DecodesByteAndWordReads) {
  uint64_t regs[16] = {};
  for (int i = 0; i < 16; i++) regs[i] = 0x1000ULL * (i + 1);
  FaultOperand op;
  // movzbl (%rax,%rdx,1),%edx
  const uint8_t movzx[] = {0x0f, 0xb6, 0x14, 0x10};
  ASSERT_TRUE(ByteLoadOperand(movzx, regs, &op));
  EXPECT_EQ(op.address, regs[0] + regs[2]);
  EXPECT_EQ(op.base, regs[0]);
  EXPECT_EQ(op.index, regs[2]);
  // cmpb $0x0,(%r8,%r9,1)
  const uint8_t cmpb[] = {0x43, 0x80, 0x3c, 0x08, 0x00};
  ASSERT_TRUE(ByteLoadOperand(cmpb, regs, &op));
  EXPECT_EQ(op.address, regs[8] + regs[9]);
  // cmpw $0x0,0x10(%rbx)
  const uint8_t cmpw[] = {0x66, 0x83, 0x7b, 0x10, 0x00};
  ASSERT_TRUE(ByteLoadOperand(cmpw, regs, &op));
  EXPECT_EQ(op.address, regs[3] + 0x10);
  EXPECT_FALSE(op.has_index);
  // movsbl -0x8(%r13,%rcx,4),%eax  (scaled index, disp8)
  const uint8_t movsx[] = {0x41, 0x0f, 0xbe, 0x44, 0x8d, 0xf8};
  ASSERT_TRUE(ByteLoadOperand(movsx, regs, &op));
  EXPECT_EQ(op.address, regs[13] + regs[1] * 4 - 8);
  // addb $0x1,(%rax): group 1 but not a compare
  const uint8_t addb[] = {0x80, 0x00, 0x01};
  EXPECT_FALSE(ByteLoadOperand(addb, regs, &op));
  // movzbl %al,%eax: a register operand
  const uint8_t movzx_reg[] = {0x0f, 0xb6, 0xc0};
  EXPECT_FALSE(ByteLoadOperand(movzx_reg, regs, &op));
  // movzbl 0x10(%rip),%eax: RIP-relative
  const uint8_t rip[] = {0x0f, 0xb6, 0x05, 0x10, 0x00, 0x00, 0x00};
  EXPECT_FALSE(ByteLoadOperand(rip, regs, &op));
  // call *%rax: not a load
  const uint8_t call[] = {0xff, 0xd0};
  EXPECT_FALSE(ByteLoadOperand(call, regs, &op));
}

}  // namespace
}  // namespace squashlab
