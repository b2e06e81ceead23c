// SPDX-License-Identifier: GPL-2.0-only
// This file implements CodecHeap (codec_heap.h).
#include "model/linux/bridge/codec_heap.h"

#include <cstdlib>
#include <cstring>

namespace squashlab::linux_bridge {

CodecHeap::~CodecHeap() {
  for (const void* p : live_) std::free(const_cast<void*>(p));
}

void* CodecHeap::Alloc(size_t bytes) {
  void* p = std::malloc(bytes == 0 ? 1 : bytes);
  if (p == nullptr) return nullptr;
  std::lock_guard<std::mutex> l(mu_);
  live_.insert(p);
  return p;
}

void CodecHeap::Free(void* p) {
  if (p == nullptr) return;
  {
    std::lock_guard<std::mutex> l(mu_);
    if (live_.erase(p) == 0) return;  // not ours: never free it
  }
  std::free(p);
}

bool CodecHeap::Owns(const void* p) const {
  std::lock_guard<std::mutex> l(mu_);
  return live_.count(p) != 0;
}

size_t CodecHeap::live() const {
  std::lock_guard<std::mutex> l(mu_);
  return live_.size();
}

void* CodecHeap::ZAlloc(void* opaque, unsigned items, unsigned size) {
  return CallocHook(opaque, items, size);
}

void* CodecHeap::AllocHook(void* opaque, size_t bytes) {
  return static_cast<CodecHeap*>(opaque)->Alloc(bytes);
}

void* CodecHeap::ArrayHook(void* opaque, size_t items, size_t size) {
  if (size != 0 && items > static_cast<size_t>(-1) / size) return nullptr;
  return AllocHook(opaque, items * size);
}

void* CodecHeap::CallocHook(void* opaque, size_t items, size_t size) {
  void* p = ArrayHook(opaque, items, size);
  if (p != nullptr) std::memset(p, 0, items * size);
  return p;
}

void CodecHeap::FreeHook(void* opaque, void* p) {
  static_cast<CodecHeap*>(opaque)->Free(p);
}

}  // namespace squashlab::linux_bridge
