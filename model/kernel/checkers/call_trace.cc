// SPDX-License-Identifier: GPL-2.0-only
// This file implements the kernel-text registry and the reports' call
// traces.
#include "model/kernel/checkers/call_trace.h"

#include <execinfo.h>

#include <mutex>
#include <utility>
#include <vector>

#include "model/kernel/checkers/symbolize.h"

namespace squashlab {
namespace {

std::mutex& TextMutex() {
  static auto* m = new std::mutex;
  return *m;
}

std::vector<std::pair<uintptr_t, uintptr_t>>& Text() {
  static auto* text = new std::vector<std::pair<uintptr_t, uintptr_t>>;
  return *text;
}

}  // namespace

void AddKernelText(uintptr_t lo, size_t len) {
  std::lock_guard<std::mutex> l(TextMutex());
  for (const auto& r : Text())
    if (r.first == lo) return;
  Text().push_back({lo, lo + len});
}

bool InKernelText(uintptr_t pc) {
  std::lock_guard<std::mutex> l(TextMutex());
  for (const auto& [lo, hi] : Text())
    if (pc >= lo && pc < hi) return true;
  return false;
}

std::string FormatCallTrace(const uintptr_t* pcs, int n) {
  std::string out;
  for (int k = 0; k < n; k++) {
    if (pcs[k] == 0 || !InKernelText(pcs[k] - 1)) continue;
    const std::string fn = FunctionAt(pcs[k] - 1);
    if (fn.empty()) continue;
    out += " " + fn + "\n";
  }
  if (out.empty()) return "";
  return "Call Trace:\n" + out;
}

std::string CurrentCallTrace() {
  {
    std::lock_guard<std::mutex> l(TextMutex());
    if (Text().empty()) return "";  // no real kernel code loaded
  }
  void* frames[64];
  const int n = backtrace(frames, 64);
  std::vector<uintptr_t> pcs;
  for (int k = 0; k < n; k++)
    pcs.push_back(reinterpret_cast<uintptr_t>(frames[k]));
  return FormatCallTrace(pcs.data(), static_cast<int>(pcs.size()));
}

}  // namespace squashlab
