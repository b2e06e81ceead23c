// SPDX-License-Identifier: GPL-2.0-only
// This file implements the registry of the facilities' quiescence checks.
#include "model/kernel/quiescence.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "model/kernel/kernel.h"

namespace squashlab {
namespace {

struct Entry {
  int order;
  const char* name;
  QuiescenceCheck check;
};

std::vector<Entry>& Registry() {
  static auto* entries = new std::vector<Entry>();
  return *entries;
}

}  // namespace

QuiescenceCheckRegistration::QuiescenceCheckRegistration(
    int order, const char* name, QuiescenceCheck check) {
  auto& r = Registry();
  r.push_back({order, name, check});
  std::sort(r.begin(), r.end(), [](const Entry& a, const Entry& b) {
    return a.order != b.order ? a.order < b.order
                              : std::strcmp(a.name, b.name) < 0;
  });
}

void RunQuiescenceChecks(Kernel& k) {
  for (const Entry& e : Registry()) {
    if (k.fatal()) return;
    e.check(k);
  }
}

}  // namespace squashlab
