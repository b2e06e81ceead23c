// SPDX-License-Identifier: GPL-2.0-only
// This file implements the helpers of the contract tests: run a body as one
// task under the non-preemptive schedule and return its report.
#ifndef SQUASHLAB_MODEL_KERNEL_TESTING_CONTRACT_H_
#define SQUASHLAB_MODEL_KERNEL_TESTING_CONTRACT_H_

#include <functional>

#include "model/kernel/scenario.h"
#include "model/sched/explorer.h"
#include "model/sched/replay_strategy.h"

namespace squashlab::testing {

// A debug kernel that also reports lint findings (checks with no kernel
// counterpart, contracts.h).
inline KernelConfig LintConfig() {
  KernelConfig c;
  c.lint = true;
  return c;
}

// Runs `body` as the process-context task "dd" (plus whatever it spawns).
inline Report RunTask(std::function<void()> body, KernelConfig config = {},
                      std::function<void(Kernel&)> extra_setup = nullptr) {
  Explorer explorer;
  Scenario sc{"contract", config, [body, extra_setup](Kernel& k) {
                if (extra_setup) extra_setup(k);
                k.Spawn(TaskSpec{"dd", TaskContext::kProcess, 0, 0, 0, body});
              }};
  ReplayStrategy replay({});
  return explorer.RunOnce(sc, replay, 1, false).report;
}

}  // namespace squashlab::testing

#define EXPECT_SILENT(report) \
  EXPECT_TRUE((report).empty()) << (report).ToString()
#define EXPECT_REPORT(report, kind_)                        \
  EXPECT_EQ((report).kind, kind_)                           \
      << ::squashlab::ReportKindName((report).kind) << "\n" \
      << (report).ToString()

#endif  // SQUASHLAB_MODEL_KERNEL_TESTING_CONTRACT_H_
