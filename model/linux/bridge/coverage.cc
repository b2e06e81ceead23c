// SPDX-License-Identifier: GPL-2.0-only
// This file implements the set of functions of real kernel code reached.
#include "model/linux/bridge/coverage.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <set>
#include <string>
#include <unordered_set>
#include <utility>

namespace squashlab::linux_bridge {
namespace {

std::atomic<bool> enabled{false};
std::mutex mu;
struct SiteHash {
  size_t operator()(const std::pair<const char*, const char*>& p) const {
    return std::hash<const char*>()(p.first) * 31 +
           std::hash<const char*>()(p.second);
  }
};
// By address: __FILE__ and __func__ of a loaded module stay put while it
// is loaded.
std::unordered_set<std::pair<const char*, const char*>, SiteHash>& Seen() {
  static auto* s =
      new std::unordered_set<std::pair<const char*, const char*>, SiteHash>;
  return *s;
}

// "file.c function", for a call in a .c file (the header layer's inline
// wrappers, in .h files, are not the code under test).
std::string Name(const char* file, const char* func) {
  std::string f = file;
  if (f.size() < 2 || f.compare(f.size() - 2, 2, ".c") != 0) return "";
  size_t slash = f.rfind('/');
  return (slash == std::string::npos ? f : f.substr(slash + 1)) + " " + func;
}

}  // namespace

void EnableCoverage(bool on) { enabled.store(on, std::memory_order_relaxed); }

void CoverSite(const char* file, const char* func) {
  if (file == nullptr || func == nullptr ||
      !enabled.load(std::memory_order_relaxed))
    return;
  std::lock_guard<std::mutex> l(mu);
  Seen().insert({file, func});
}

size_t CoveredSites() {
  std::lock_guard<std::mutex> l(mu);
  return Seen().size();
}

std::vector<std::string> CoveredFunctions() {
  std::lock_guard<std::mutex> l(mu);
  std::set<std::string> names;
  for (const auto& [file, func] : Seen()) {
    std::string n = Name(file, func);
    if (!n.empty()) names.insert(n);
  }
  return std::vector<std::string>(names.begin(), names.end());
}

}  // namespace squashlab::linux_bridge
