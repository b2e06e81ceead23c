// SPDX-License-Identifier: GPL-2.0-only
// This file implements RapidCheck stateful tests of the buffer_head
// lifecycle: random legal sequences (getblk, references, the buffer lock,
// the uptodate bit, reads that succeed or fail on the device) never report
// and end quiescent; the same sequences followed by one misuse always report
// (a put too many shows when the umount's invalidate_bh_lrus finds the
// count at 0: put_bh is silent, and the CPU's bh LRU holds a reference).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>
#include <rapidcheck/state.h>

#include "model/kernel/buffer_head.h"
#include "model/kernel/kernel.h"
#include "model/kernel/ram_disk.h"
#include "model/sched/explore_executor.h"
#include "model/sched/replay_strategy.h"

namespace squashlab {
namespace {

struct BhModel {
  int refs = 0;
  bool locked = false;
  bool uptodate = false;
};

struct BhSut {
  RamDisk disk{std::vector<unsigned char>(4096, 0x5c)};
  super_block sb;
  ReplayStrategy schedule{{}};
  ExploreExecutor exec;
  std::unique_ptr<Kernel> kernel;
  buffer_head* bh = nullptr;
  bool fail_reads = false;
  BhSut() {
    sb.s_bdev = disk.bdev();
    disk.set_fault([this](const bio*) { return fail_reads ? -EIO : 0; });
    exec.Reset(&schedule, false);
    KernelConfig config;
    config.lint = true;  // lint findings count here too
    kernel = std::make_unique<Kernel>(config, &exec);
  }
  template <typename F>
  bool Do(F f) {
    KernelScope scope(kernel.get());
    try {
      f();
    } catch (const TaskOops&) {
    }
    return !kernel->reported();
  }
  // Runs f as a task (it may sleep), with the device's completions.
  template <typename F>
  bool InTask(F f) {
    KernelScope scope(kernel.get());
    kernel->Spawn(TaskSpec{"dd", TaskContext::kProcess, 0, 0, 0, f});
    exec.Run();
    return !kernel->reported();
  }
};

using BhCmd = rc::state::Command<BhModel, BhSut>;

#define SQL_CMD(Name, Pre, Apply, Run)                          \
  struct Name : BhCmd {                                         \
    void checkPreconditions(const BhModel& m) const override {  \
      (void)m;                                                  \
      RC_PRE(Pre);                                              \
    }                                                           \
    void apply(BhModel& m) const override {                     \
      (void)m;                                                  \
      Apply;                                                    \
    }                                                           \
    void run(const BhModel& m, BhSut& s) const override {       \
      (void)m;                                                  \
      RC_ASSERT(s.Do([&] { Run; }));                            \
    }                                                           \
    void show(std::ostream& os) const override { os << #Name; } \
  };

SQL_CMD(Getblk, true, m.refs++, {
  buffer_head* b = sb_getblk(&s.sb, 2);
  if (s.bh) RC_ASSERT(b == s.bh);
  s.bh = b;
})
SQL_CMD(Get, m.refs > 0, m.refs++, get_bh(s.bh))
SQL_CMD(Put, m.refs > 0, m.refs--, put_bh(s.bh))
SQL_CMD(Brelse, m.refs > 0, m.refs--, brelse(s.bh))
SQL_CMD(TryLock, m.refs > 0, m.locked = true,
        RC_ASSERT(trylock_buffer(s.bh) == !m.locked))
SQL_CMD(Unlock, m.refs > 0 && m.locked, m.locked = false, unlock_buffer(s.bh))
SQL_CMD(SetUptodate, m.refs > 0, m.uptodate = true, set_buffer_uptodate(s.bh))
SQL_CMD(ClearUptodate, m.refs > 0, m.uptodate = false,
        clear_buffer_uptodate(s.bh))
SQL_CMD(CheckState, m.refs > 0, {}, {
  RC_ASSERT(!!buffer_locked(s.bh) == m.locked);
  RC_ASSERT(!!buffer_uptodate(s.bh) == m.uptodate);
  RC_ASSERT(s.bh->b_count.load() == m.refs + 1);  // + the bh LRU's
})

// ll_rw_block + wait_on_buffer from a task, the device failing or not.
struct Read : BhCmd {
  bool fail = *rc::gen::arbitrary<bool>();
  void checkPreconditions(const BhModel& m) const override {
    RC_PRE(m.refs > 0 && !m.locked);
  }
  void apply(BhModel& m) const override {
    if (!m.uptodate) m.uptodate = !fail;
  }
  void run(const BhModel&, BhSut& s) const override {
    s.fail_reads = fail;
    buffer_head* bh = s.bh;
    RC_ASSERT(s.InTask([bh]() mutable {
      ll_rw_block(READ, 1, &bh);
      wait_on_buffer(bh);
    }));
  }
  void show(std::ostream& os) const override {
    os << "Read(fail=" << fail << ")";
  }
};

auto GenCommand() {
  return rc::state::gen::execOneOfWithArgs<Getblk, Get, Put, Brelse, TryLock,
                                           Unlock, SetUptodate, ClearUptodate,
                                           CheckState, Read>();
}

RC_GTEST_PROP(BufferLifecycle, LegalSequencesNeverReport, ()) {
  BhModel initial;
  auto cmds = *rc::state::gen::commands(initial, GenCommand());
  BhSut sut;
  rc::state::runAll(cmds, initial, sut);
  BhModel m = initial;
  rc::state::applyAll(cmds, m);
  RC_ASSERT(sut.Do([&] {
    if (m.locked) unlock_buffer(sut.bh);
    for (int i = 0; i < m.refs; i++) brelse(sut.bh);
  }));
  KernelScope scope(sut.kernel.get());
  sut.kernel->CheckQuiescence();
  RC_ASSERT(!sut.kernel->reported());
}

RC_GTEST_PROP(BufferLifecycle, OneMisuseAlwaysReports, ()) {
  BhModel initial;
  auto cmds = *rc::state::gen::commands(initial, GenCommand());
  BhSut sut;
  rc::state::runAll(cmds, initial, sut);
  BhModel m = initial;
  rc::state::applyAll(cmds, m);
  if (m.refs == 0) {
    Getblk().run(m, sut);
    Getblk().apply(m);
  }
  std::vector<int> misuses = {0, 1};  // brelse / put_bh once more than held
  if (!m.locked) misuses.insert(misuses.end(), {2, 3});
  int misuse = *rc::gen::elementOf(misuses);
  sut.Do([&] {
    switch (misuse) {
      case 0:
        for (int i = 0; i <= m.refs; i++) brelse(sut.bh);
        break;
      case 1:
        for (int i = 0; i <= m.refs; i++) put_bh(sut.bh);
        break;
      case 2:
        unlock_buffer(sut.bh);
        break;
      case 3:
        sut.bh->b_end_io = end_buffer_read_sync;
        submit_bh(READ, sut.bh);
        break;
    }
    sut.kernel->CheckQuiescence();  // umount
  });
  RC_ASSERT(sut.kernel->reported());
  ReportKind k = sut.kernel->report().kind;
  RC_ASSERT(k == (misuse < 2 ? ReportKind::kBrelseFreeBuffer
                             : ReportKind::kBufferBug));
}

}  // namespace
}  // namespace squashlab
