// SPDX-License-Identifier: GPL-2.0-only
// This file implements RapidCheck stateful tests of the page lifecycle:
// random legal sequences of page-cache calls on one page never report and
// end quiescent; the same sequences followed by one misuse always report.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>
#include <rapidcheck/state.h>

#include "model/kernel/filemap.h"
#include "model/kernel/kernel.h"
#include "model/kernel/page.h"
#include "model/sched/explore_executor.h"

namespace squashlab {
namespace {

struct PageModel {
  bool in_cache = false;
  bool locked = false;
  bool uptodate = false;
  bool error = false;
  int refs = 0;  // references the test holds
  bool alive() const { return in_cache || refs > 0; }
};

// The system under test: one kernel, calls made outside any task (every
// scheduling point is then a no-op and nothing may sleep).
struct PageSut {
  ExploreExecutor exec;
  std::unique_ptr<Kernel> kernel =
      std::make_unique<Kernel>(KernelConfig{}, &exec);
  address_space* mapping = nullptr;
  page* p = nullptr;
  PageSut() {
    KernelScope scope(kernel.get());
    mapping = new_address_space("file");
  }
  // Runs f; true when it returned without a report.
  template <typename F>
  bool Do(F f) {
    KernelScope scope(kernel.get());
    try {
      f();
    } catch (const TaskOops&) {
    }
    return !kernel->reported();
  }
};

using PageCmd = rc::state::Command<PageModel, PageSut>;

#define SQL_CMD(Name, Pre, Apply, Run)                           \
  struct Name : PageCmd {                                        \
    void checkPreconditions(const PageModel& m) const override { \
      (void)m;                                                   \
      RC_PRE(Pre);                                               \
    }                                                            \
    void apply(PageModel& m) const override {                    \
      (void)m;                                                   \
      Apply;                                                     \
    }                                                            \
    void run(const PageModel& m, PageSut& s) const override {    \
      (void)m;                                                   \
      RC_ASSERT(s.Do([&] { Run; }));                             \
    }                                                            \
    void show(std::ostream& os) const override { os << #Name; }  \
  };

SQL_CMD(
    Grab, (m.in_cache ? !m.locked : m.refs == 0),
    {
      if (!m.in_cache) m.uptodate = m.error = false;
      m.in_cache = m.locked = true;
      m.refs++;
    },
    {
      page* q = grab_cache_page_nowait(s.mapping, 0);
      RC_ASSERT(q != nullptr);
      if (m.in_cache) RC_ASSERT(q == s.p);
      s.p = q;
    })
SQL_CMD(FindGet, m.in_cache, m.refs++,
        RC_ASSERT(find_get_page(s.mapping, 0) == s.p))
SQL_CMD(Lock, m.refs > 0 && !m.locked, m.locked = true, lock_page(s.p))
SQL_CMD(TryLock, m.refs > 0, m.locked = true,
        RC_ASSERT(trylock_page(s.p) == !m.locked))
SQL_CMD(Unlock, m.alive() && m.locked, m.locked = false, unlock_page(s.p))
SQL_CMD(SetUptodate, m.alive() && m.locked, m.uptodate = true,
        SetPageUptodate(s.p))
SQL_CMD(SetError, m.refs > 0, m.error = true, SetPageError(s.p))
SQL_CMD(ClearError, m.refs > 0, m.error = false, ClearPageError(s.p))
SQL_CMD(Get, m.refs > 0, m.refs++, get_page(s.p))
SQL_CMD(Put, m.refs > 0 && !(m.refs == 1 && !m.in_cache && m.locked), m.refs--,
        put_page(s.p))
SQL_CMD(Delete, m.in_cache&& m.locked&& m.refs > 0, m.in_cache = false,
        delete_from_page_cache(s.p))
SQL_CMD(Reclaim, true,
        if (m.in_cache && !m.locked && m.refs == 0) m.in_cache = false,
        RC_ASSERT(shrink_page_cache(8) ==
                  (m.in_cache && !m.locked && m.refs == 0 ? 1u : 0u)))
SQL_CMD(CheckFlags, m.refs > 0, {}, {
  RC_ASSERT(!!PageLocked(s.p) == m.locked);
  RC_ASSERT(!!PageUptodate(s.p) == m.uptodate);
  RC_ASSERT(!!PageError(s.p) == m.error);
  RC_ASSERT(page_count(s.p) == m.refs + (m.in_cache ? 1 : 0));
})

auto GenCommand() {
  return rc::state::gen::execOneOfWithArgs<
      Grab, FindGet, Lock, TryLock, Unlock, SetUptodate, SetError, ClearError,
      Get, Put, Delete, Reclaim, CheckFlags>();
}

// Releases what the test holds the legal way, then checks quiescence.
void Release(const PageModel& m, PageSut& s) {
  RC_ASSERT(s.Do([&] {
    if (m.alive() && m.in_cache && !m.uptodate && !m.error) {
      if (!m.locked) lock_page(s.p);
      SetPageError(s.p);
      unlock_page(s.p);
    } else if (m.alive() && m.locked) {
      unlock_page(s.p);
    }
    for (int i = 0; i < m.refs; i++) put_page(s.p);
  }));
  s.kernel->CheckQuiescence();
  RC_ASSERT(!s.kernel->reported());
}

RC_GTEST_PROP(PageLifecycle, LegalSequencesNeverReport, ()) {
  PageModel initial;
  auto cmds = *rc::state::gen::commands(initial, GenCommand());
  PageSut sut;
  rc::state::runAll(cmds, initial, sut);
  PageModel final_model = initial;
  rc::state::applyAll(cmds, final_model);
  Release(final_model, sut);
}

RC_GTEST_PROP(PageLifecycle, OneMisuseAlwaysReports, ()) {
  PageModel initial;
  auto cmds = *rc::state::gen::commands(initial, GenCommand());
  PageSut sut;
  rc::state::runAll(cmds, initial, sut);
  PageModel m = initial;
  rc::state::applyAll(cmds, m);
  if (!m.alive()) {  // get a page to misuse
    Grab().run(m, sut);
    Grab().apply(m);
  }
  std::vector<int> misuses = {0};  // put one reference more than held
  if (!m.locked) misuses.push_back(1);
  // (SetPageUptodate on an unlocked page is no misuse: no kernel checks it.)
  if (!m.locked && m.in_cache) misuses.push_back(3);
  int misuse = *rc::gen::elementOf(misuses);
  sut.Do([&] {
    switch (misuse) {
      case 0:
        for (int i = 0; i <= m.refs + (m.in_cache ? 1 : 0); i++)
          put_page(sut.p);
        break;
      case 1:
        unlock_page(sut.p);
        break;
      case 3:
        delete_from_page_cache(sut.p);
        break;
    }
  });
  RC_ASSERT(sut.kernel->reported());
  ReportKind k = sut.kernel->report().kind;
  RC_ASSERT(k == ReportKind::kPageBug || k == ReportKind::kBadPageState);
}

}  // namespace
}  // namespace squashlab
