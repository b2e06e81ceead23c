// SPDX-License-Identifier: GPL-2.0-only
// This file implements the tests of the data-race detector through its
// instrumentation entry points (kcsan_runtime.cc), as the code under test
// calls them: a plain read of a word another task writes with nothing
// ordering the two is "BUG: KCSAN: data-race"; the model's
// synchronisation orders them (a mutex, a spinlock, a completion, a
// release store read by an acquire load, the spawn of a task), and marked
// accesses never race with each other; aligned plain writes of a word
// count as marked (ASSUME_PLAIN_WRITES_ATOMIC), unaligned ones do not.
#include "model/kernel/checkers/kcsan.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>

#include "model/kernel/completion.h"
#include "model/kernel/mutex.h"
#include "model/kernel/slab.h"
#include "model/kernel/testing/contract.h"

extern "C" {
void __sl_kcsan_read4(void* p);
void __sl_kcsan_write4(void* p);
void __sl_kcsan_unaligned_write4(void* p);
void __sl_kcsan_volatile_read4(void* p);
uint32_t __sl_kcsan_atomic32_load(const volatile uint32_t* a, int mo);
void __sl_kcsan_atomic32_store(volatile uint32_t* a, uint32_t v, int mo);
void sl_kcsan_disable_current(void);
void sl_kcsan_enable_current(void);
}

namespace squashlab {
namespace {

constexpr int kRelaxed = 0, kAcquire = 2, kRelease = 3;

struct Shared {
  uint32_t data[4];
  uint32_t flag;
  mutex m;
  spinlock_t l;
  completion done;
};

Shared* NewShared() {  // in the slab arena: a shared object
  auto* s = static_cast<Shared*>(kzalloc(sizeof(Shared), GFP_KERNEL, "test"));
  mutex_init(&s->m);
  spin_lock_init(&s->l);
  init_completion(&s->done);
  return s;
}

KernelConfig Kcsan() {
  KernelConfig c;
  c.kcsan = true;
  return c;
}

// dd spawns "other" first (what dd does later is unordered with it), then
// runs `mine`; other runs `theirs`.
Report Race(std::function<void(Shared*)> mine,
            std::function<void(Shared*)> theirs) {
  return testing::RunTask(
      [mine, theirs] {
        Shared* s = NewShared();
        Kernel::Current().Spawn(TaskSpec{"other", TaskContext::kProcess, 1, 0,
                                         0, [s, theirs] { theirs(s); }});
        mine(s);
      },
      Kcsan());
}

void Write(Shared* s) { __sl_kcsan_write4(&s->data[0]); }
void Read(Shared* s) { __sl_kcsan_read4(&s->data[0]); }

TEST(Kcsan, PlainReadOfAConcurrentWriteRaces) {
  Report r = Race(Write, Read);
  EXPECT_REPORT(r, ReportKind::kDataRace);
  EXPECT_EQ(r.contract, "kcsan.data_race");
  EXPECT_EQ(r.title.rfind("BUG: KCSAN: data-race in ", 0), 0u) << r.title;
  EXPECT_NE(r.body.find("write to 0x"), std::string::npos) << r.body;
  EXPECT_NE(r.body.find("read to 0x"), std::string::npos) << r.body;
  EXPECT_NE(r.body.find(" of 4 bytes by task "), std::string::npos) << r.body;
  EXPECT_NE(r.body.find("Reported by Kernel Concurrency Sanitizer on:"),
            std::string::npos);
}

TEST(Kcsan, NoKcsanNoReport) {
  EXPECT_SILENT(testing::RunTask([] {
    Shared* s = NewShared();
    Kernel::Current().Spawn(
        TaskSpec{"other", TaskContext::kProcess, 1, 0, 0, [s] { Read(s); }});
    Write(s);
  }));
}

TEST(Kcsan, MutexOrdersThem) {
  EXPECT_SILENT(Race(
      [](Shared* s) {
        mutex_lock(&s->m);
        Write(s);
        mutex_unlock(&s->m);
      },
      [](Shared* s) {
        mutex_lock(&s->m);
        Read(s);
        mutex_unlock(&s->m);
      }));
}

TEST(Kcsan, OneSideWithoutTheLockRaces) {
  EXPECT_REPORT(Race(
                    [](Shared* s) {
                      spin_lock(&s->l);
                      Write(s);
                      spin_unlock(&s->l);
                    },
                    Read),
                ReportKind::kDataRace);
}

TEST(Kcsan, SpinlockOrdersThem) {
  EXPECT_SILENT(Race(
      [](Shared* s) {
        spin_lock(&s->l);
        Write(s);
        spin_unlock(&s->l);
      },
      [](Shared* s) {
        spin_lock(&s->l);
        Read(s);
        spin_unlock(&s->l);
      }));
}

TEST(Kcsan, CompletionOrdersThem) {
  EXPECT_SILENT(Race(
      [](Shared* s) {
        Write(s);
        complete(&s->done);
      },
      [](Shared* s) {
        wait_for_completion(&s->done);
        Read(s);
      }));
}

TEST(Kcsan, SpawnOrdersWhatCameBefore) {
  EXPECT_SILENT(testing::RunTask(
      [] {
        Shared* s = NewShared();
        Write(s);
        Kernel::Current().Spawn(TaskSpec{"other", TaskContext::kProcess, 1, 0,
                                         0, [s] { Read(s); }});
      },
      Kcsan()));
}

// Message passing: the reader reads the data only once it sees the flag.
void Publish(Shared* s, int mo) {
  __sl_kcsan_unaligned_write4(&s->data[0]);
  __sl_kcsan_atomic32_store(&s->flag, 1, mo);
}
void Consume(Shared* s, int mo) {
  if (__sl_kcsan_atomic32_load(&s->flag, mo) == 1) Read(s);
}

TEST(Kcsan, ReleaseStoreAcquireLoadOrdersThem) {
  EXPECT_SILENT(Race([](Shared* s) { Publish(s, kRelease); },
                     [](Shared* s) { Consume(s, kAcquire); }));
}

TEST(Kcsan, RelaxedAtomicsOrderNothing) {
  EXPECT_REPORT(Race([](Shared* s) { Publish(s, kRelaxed); },
                     [](Shared* s) { Consume(s, kRelaxed); }),
                ReportKind::kDataRace);
}

TEST(Kcsan, MarkedAccessesNeverRace) {
  EXPECT_SILENT(
      Race(Write, [](Shared* s) { __sl_kcsan_volatile_read4(&s->data[0]); }));
  EXPECT_SILENT(Race(Write, [](Shared* s) {
    sl_kcsan_disable_current();  // data_race()
    Read(s);
    sl_kcsan_enable_current();
  }));
}

TEST(Kcsan, AlignedPlainWritesCountAsMarked) {
  EXPECT_SILENT(Race(Write, Write));
  auto unaligned = [](Shared* s) {
    __sl_kcsan_unaligned_write4(reinterpret_cast<char*>(&s->data[0]) + 2);
  };
  EXPECT_REPORT(Race(unaligned, unaligned), ReportKind::kDataRace);
}

TEST(Kcsan, DisjointBytesOfOneWordDoNotRace) {
  EXPECT_SILENT(
      Race([](Shared* s) { Read(s); },
           [](Shared* s) { __sl_kcsan_unaligned_write4(&s->data[1]); }));
}

}  // namespace
}  // namespace squashlab
