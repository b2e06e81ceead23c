// SPDX-License-Identifier: GPL-2.0-only
// This file implements the names and the text form of reports.
#include "model/base/report.h"

namespace squashlab {

const char* ReportKindName(ReportKind kind) {
  switch (kind) {
    case ReportKind::kNone:
      return "none";
    case ReportKind::kBadPageState:
      return "bad-page-state";
    case ReportKind::kPageBug:
      return "page-bug";
    case ReportKind::kBrelseFreeBuffer:
      return "brelse-free-buffer";
    case ReportKind::kBufferBug:
      return "buffer-bug";
    case ReportKind::kNullDereference:
      return "null-dereference";
    case ReportKind::kGeneralProtection:
      return "general-protection";
    case ReportKind::kUseAfterFree:
      return "use-after-free";
    case ReportKind::kDoubleFree:
      return "double-free";
    case ReportKind::kUninitValue:
      return "uninit-value";
    case ReportKind::kSchedulingWhileAtomic:
      return "scheduling-while-atomic";
    case ReportKind::kBadContext:
      return "bad-context";
    case ReportKind::kHungTask:
      return "hung-task";
    case ReportKind::kWorkFreedActive:
      return "work-freed-active";
    case ReportKind::kLeak:
      return "leak";
    case ReportKind::kQuiescence:
      return "quiescence";
    case ReportKind::kAssertion:
      return "assertion";
    case ReportKind::kWrongData:
      return "wrong-data";
    case ReportKind::kStepLimit:
      return "step-limit";
    case ReportKind::kSleepInvalidContext:
      return "sleep-invalid-context";
    case ReportKind::kLockdep:
      return "lockdep";
    case ReportKind::kOutOfBounds:
      return "out-of-bounds";
    case ReportKind::kCpuException:
      return "cpu-exception";
    case ReportKind::kDataRace:
      return "data-race";
    case ReportKind::kUndefinedBehavior:
      return "undefined-behavior";
  }
  return "unknown";
}

std::string Report::ToString() const {
  if (empty()) return "no report";
  // Bodies that carry the kernel's own first line start with the title.
  std::string s = body.rfind(title, 0) == 0 ? "" : title + "\n";
  if (!body.empty()) s += body + (body.back() == '\n' ? "" : "\n");
  if (!task.empty())
    s += "Comm: " + task +
         (step >= 0 ? " at step " + std::to_string(step) : "") + "\n";
  if (!source.empty()) s += "checked as: " + source + "\n";
  return s;
}

}  // namespace squashlab
