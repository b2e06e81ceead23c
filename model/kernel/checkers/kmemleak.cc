// SPDX-License-Identifier: GPL-2.0-only
// This file implements kmemleak's reachability scan over the model's heap.
#include "model/kernel/checkers/kmemleak.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <set>
#include <utility>

namespace squashlab {
namespace {

std::mutex& RootsMutex() {
  static std::mutex* m = new std::mutex;
  return *m;
}

std::set<std::pair<uintptr_t, size_t>>& Roots() {
  static auto* roots = new std::set<std::pair<uintptr_t, size_t>>;
  return *roots;
}

// Marks every object a word of [lo, lo + len) points into, queueing the
// newly reached ones. The bytes are read as they are (no KASAN check: the
// scan is kmemleak's, which reads objects and data without instrumentation).
__attribute__((no_sanitize("address"))) void ScanRange(
    uintptr_t lo, size_t len, const std::vector<KmemleakObject>& sorted,
    std::vector<char>* reached, std::vector<size_t>* queue) {
  const uintptr_t first = (lo + 7) & ~uintptr_t{7};
  for (uintptr_t a = first; a + 8 <= lo + len; a += 8) {
    uintptr_t v;
    std::memcpy(&v, reinterpret_cast<const void*>(a), sizeof v);
    auto it = std::upper_bound(
        sorted.begin(), sorted.end(), v,
        [](uintptr_t x, const KmemleakObject& o) { return x < o.base; });
    if (it == sorted.begin()) continue;
    --it;
    if (v >= it->base + it->size) continue;
    const size_t k = static_cast<size_t>(it - sorted.begin());
    if ((*reached)[k]) continue;
    (*reached)[k] = 1;
    queue->push_back(k);
  }
}

}  // namespace

void KmemleakAddRoot(uintptr_t lo, size_t len) {
  std::lock_guard<std::mutex> l(RootsMutex());
  Roots().insert({lo, len});
}

std::vector<size_t> KmemleakUnreferenced(
    const std::vector<KmemleakObject>& objects) {
  std::vector<size_t> order(objects.size());
  for (size_t i = 0; i < order.size(); i++) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return objects[a].base < objects[b].base;
  });
  std::vector<KmemleakObject> sorted;
  for (size_t i : order) sorted.push_back(objects[i]);
  std::vector<char> reached(sorted.size(), 0);
  std::vector<size_t> queue;
  {
    std::lock_guard<std::mutex> l(RootsMutex());
    for (const auto& [lo, len] : Roots())
      ScanRange(lo, len, sorted, &reached, &queue);
  }
  while (!queue.empty()) {  // the gray objects: scan what they point to
    const size_t k = queue.back();
    queue.pop_back();
    ScanRange(sorted[k].base, sorted[k].size, sorted, &reached, &queue);
  }
  std::vector<size_t> out;
  for (size_t s = 0; s < sorted.size(); s++)
    if (!reached[s]) out.push_back(order[s]);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace squashlab
