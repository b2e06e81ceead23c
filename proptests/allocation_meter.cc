// SPDX-License-Identifier: GPL-2.0-only
// This file implements AllocationMeter by replacing the global operator new.
#include "proptests/allocation_meter.h"

#include <atomic>
#include <cstdlib>
#include <new>

namespace squashlab::proptests {
namespace {
std::atomic<bool> armed{false};
std::atomic<size_t> largest_seen{0};

void* Allocate(size_t n) {
  if (armed.load(std::memory_order_relaxed)) {
    size_t cur = largest_seen.load(std::memory_order_relaxed);
    while (n > cur && !largest_seen.compare_exchange_weak(cur, n)) {
    }
  }
  void* p = std::malloc(n == 0 ? 1 : n);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
}  // namespace

AllocationMeter::AllocationMeter() {
  largest_seen = 0;
  armed = true;
}
AllocationMeter::~AllocationMeter() { armed = false; }
size_t AllocationMeter::largest() { return largest_seen.load(); }

}  // namespace squashlab::proptests

void* operator new(size_t n) { return squashlab::proptests::Allocate(n); }
void* operator new[](size_t n) { return squashlab::proptests::Allocate(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }
