// SPDX-License-Identifier: GPL-2.0-only
// This file implements the tests of the allocation world around the code
// under test: fault injection (should_failslab, should_fail_alloc_page:
// task filter, interrupts, probability, fail-nth), vmalloc's own region
// (kfree of a vmalloc'd object, vfree of a kmalloc'd one, kvfree) and
// kmap_local's unmap order and CONFIG_DEBUG_KMAP_LOCAL_FORCE_MAP's
// temporary mappings (a use after kunmap_local faults).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "model/kernel/fault_inject.h"
#include "model/kernel/kernel.h"
#include "model/kernel/kmap_local.h"
#include "model/kernel/page.h"
#include "model/kernel/slab.h"
#include "model/kernel/testing/contract.h"
#include "model/kernel/vmalloc.h"
#include "model/sched/task_fault.h"

namespace squashlab {
namespace {

using testing::RunTask;

KernelConfig Plan(const std::string& name) {
  KernelConfig c;
  EXPECT_TRUE(ParseAllocFaultPlan(name, &c.fault_inject)) << name;
  return c;
}

void MakeItFail(Kernel& k) { k.SetMakeItFail(true); }

TEST(AllocFaults, PlansParse) {
  FaultInjectConfig c;
  EXPECT_TRUE(ParseAllocFaultPlan("failslab", &c));
  EXPECT_TRUE(c.failslab && !c.fail_page_alloc && c.probability == 10);
  EXPECT_TRUE(ParseAllocFaultPlan("fail_page_alloc", &c));
  EXPECT_TRUE(!c.failslab && c.fail_page_alloc);
  EXPECT_TRUE(ParseAllocFaultPlan("fail-nth=7", &c));
  EXPECT_TRUE(c.failslab && c.fail_page_alloc && c.nth == 7);
  EXPECT_TRUE(ParseAllocFaultPlan("fail-nth", &c));
  EXPECT_TRUE(c.nth_from_seed);
  for (const char* bad : {"", "eio", "fail-nth=", "fail-nth=0", "fail-nth=x",
                          "fail-nth=3x", "failslab=1"})
    EXPECT_FALSE(ParseAllocFaultPlan(bad, &c)) << bad;
}

// fail-nth=3: the third point of a make-it-fail task fails, once.
TEST(AllocFaults, NthPointFailsOnce) {
  std::vector<bool> got;
  Report r = RunTask(
      [&got] {
        for (int i = 0; i < 6; i++)
          got.push_back(should_failslab(GFP_KERNEL, 8));
      },
      Plan("fail-nth=3"), MakeItFail);
  EXPECT_SILENT(r);
  EXPECT_EQ(got, (std::vector<bool>{false, false, true, false, false, false}));
}

// The task filter: a task spawned without make-it-fail never fails, and
// neither does a plan of the other kind.
TEST(AllocFaults, TaskFilterAndKind) {
  KernelConfig all = Plan("failslab");
  all.fault_inject.probability = 100;
  int fails = 0;
  EXPECT_SILENT(
      RunTask([&fails] { fails += should_failslab(GFP_KERNEL, 8); }, all));
  EXPECT_EQ(fails, 0);
  EXPECT_SILENT(RunTask(
      [&fails] {
        fails += should_failslab(GFP_KERNEL, 8);
        fails += should_fail_alloc_page(GFP_KERNEL, 0) ? 10 : 0;
      },
      all, MakeItFail));
  EXPECT_EQ(fails, 1);
}

// The probability draws from the run's seed: about a tenth fail, and the
// same seed fails the same points.
TEST(AllocFaults, ProbabilityFromSeed) {
  auto pattern = [](uint64_t seed) {
    std::vector<bool> got;
    Scenario sc{"failslab", Plan("failslab"), [&got](Kernel& k) {
                  k.SetMakeItFail(true);
                  TaskSpec t{"dd", TaskContext::kProcess, 0, 0, 0, [&got] {
                               for (int i = 0; i < 400; i++)
                                 got.push_back(should_failslab(GFP_KERNEL, 8));
                             }};
                  k.Spawn(std::move(t));
                }};
    Explorer explorer;
    ReplayStrategy replay({});
    explorer.RunOnce(sc, replay, seed, false);
    return got;
  };
  std::vector<bool> a = pattern(5);
  EXPECT_EQ(a, pattern(5));
  EXPECT_NE(a, pattern(6));
  const long n = std::count(a.begin(), a.end(), true);
  EXPECT_GT(n, 20);
  EXPECT_LT(n, 70);
}

TEST(Vmalloc, EachFreedByItsOwnIsSilent) {
  EXPECT_SILENT(RunTask([] {
    void* v = vmalloc(1 << 16);
    void* s = kmalloc(64, GFP_KERNEL);
    EXPECT_TRUE(is_vmalloc_addr(v));
    EXPECT_FALSE(is_vmalloc_addr(s));
    vfree(v);
    kfree(s);
    kvfree(vmalloc(100));
    kvfree(kmalloc(100, GFP_KERNEL));
    vfree(nullptr);
  }));
}

TEST(Vmalloc, KfreeOfVmallocIsPhysAddrBug) {
  Report r = RunTask([] { kfree(vmalloc(4096)); });
  EXPECT_EQ(r.title, "kernel BUG at arch/x86/mm/physaddr.c:28!")
      << r.ToString();
  EXPECT_FALSE(r.warning);
}

TEST(Vmalloc, VfreeOfKmallocWarnsAndFreesNothing) {
  Report r = RunTask([] {
    void* p = kmalloc(64, GFP_KERNEL);
    vfree(p);
    kfree(p);  // still allocated: kfree is legal after the refused vfree
  });
  EXPECT_EQ(r.title, "WARNING in vfree: Trying to vfree() nonexistent vm area")
      << r.ToString();
  EXPECT_TRUE(r.warning);
}

TEST(KmapLocal, LifoIsSilentOtherOrderWarns) {
  EXPECT_SILENT(RunTask([] {
    page* a = alloc_page(GFP_KERNEL);
    page* b = alloc_page(GFP_KERNEL);
    void* va = kmap_local_page(a);
    void* vb = kmap_local_page(b);
    kunmap_local(static_cast<char*>(vb) + 100);  // any address in the page
    kunmap_local(va);
    put_page(a);
    put_page(b);
  }));
  Report r = RunTask([] {
    page* a = alloc_page(GFP_KERNEL);
    page* b = alloc_page(GFP_KERNEL);
    void* va = kmap_local_page(a);
    void* vb = kmap_local_page(b);
    kunmap_local(va);
    kunmap_local(vb);
    put_page(a);
    put_page(b);
  });
  EXPECT_EQ(r.title, "WARNING in kunmap_local_indexed") << r.ToString();
  EXPECT_NE(r.body.find("mm/highmem.c:623"), std::string::npos);
  EXPECT_SILENT(RunTask([] {}));
  Report none = RunTask([] { kunmap_local(reinterpret_cast<void*>(4096)); });
  EXPECT_NE(none.body.find("mm/highmem.c:607"), std::string::npos)
      << none.ToString();
}

// Under FORCE_MAP a lowmem page is mapped at a slot of its own: writes
// through it reach the page at kunmap_local, and the page's bytes are
// what the slot shows.
TEST(KmapLocal, ForceMapSlotAliasesThePage) {
  if (!TaskFaultLandingEnabled()) GTEST_SKIP() << "no host fault landing";
  EXPECT_SILENT(RunTask([] {
    page* a = alloc_page(GFP_KERNEL);
    auto* pa = static_cast<char*>(page_address(a));
    std::memset(pa, 'x', 4096);
    auto* va = static_cast<char*>(kmap_local_page(a));
    if (va == pa) BUG();  // FORCE_MAP: never the page's own address
    if (va[17] != 'x') BUG();
    va[100] = 'y';
    pa[200] = 'z';  // another writer's byte the mapper did not touch
    kunmap_local(va);
    if (pa[100] != 'y' || pa[200] != 'z' || pa[101] != 'x') BUG();
    put_page(a);
  }));
}

TEST(KmapLocal, UseAfterKunmapLocalFaults) {
  if (!TaskFaultLandingEnabled()) GTEST_SKIP() << "no host fault landing";
  Report r = RunTask([] {
    page* a = alloc_page(GFP_KERNEL);
    auto* va = static_cast<volatile char*>(kmap_local_page(a));
    va[8] = 1;
    kunmap_local(const_cast<char*>(va));
    va[8] = 2;  // the slot's PTE is clear
    put_page(a);
  });
  EXPECT_EQ(r.title.rfind("BUG: unable to handle page fault for address", 0),
            0u)
      << r.ToString();
  EXPECT_EQ(r.contract, "highmem.kmap_local_unmapped") << r.ToString();
  EXPECT_NE(r.body.find("a use of the mapping's address after kunmap_local"),
            std::string::npos)
      << r.ToString();
  // Past the mapped page: the guard slot KM_INCR leaves.
  Report g = RunTask([] {
    page* a = alloc_page(GFP_KERNEL);
    auto* va = static_cast<volatile char*>(kmap_local_page(a));
    va[4096] = 1;
    kunmap_local(const_cast<char*>(va));
    put_page(a);
  });
  EXPECT_EQ(g.contract, "highmem.kmap_local_unmapped") << g.ToString();
  EXPECT_NE(g.body.find("a guard slot"), std::string::npos) << g.ToString();
}

// A production kernel (no FORCE_MAP): the page's own address, which stays
// valid after kunmap_local.
TEST(KmapLocal, ProductionKernelHandsOutThePageAddress) {
  KernelConfig prod;
  prod.debug = false;
  EXPECT_SILENT(RunTask(
      [] {
        page* a = alloc_page(GFP_KERNEL);
        auto* va = static_cast<volatile char*>(kmap_local_page(a));
        if (const_cast<char*>(va) != page_address(a)) BUG();
        kunmap_local(const_cast<char*>(va));
        va[8] = 2;
        put_page(a);
      },
      prod));
}

}  // namespace
}  // namespace squashlab
