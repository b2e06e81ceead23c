// SPDX-License-Identifier: GPL-2.0-only
// This file implements CodecHeap: the memory of one run's system-library
// decoder states (zlib, zstd, liblzma) behind the in-kernel decompressor
// APIs. The kernel's decoders keep their state inside a workspace the file
// system allocated once, so a stream that is initialised again, or dropped
// on an error path without its end call, costs nothing there; the system
// libraries allocate instead. Everything still live when the run ends is
// freed with it, and the bridge can ask whether a pointer read out of a
// workspace is one of its live states (the workspace is uninitialised the
// first time). Thread-safe.
#ifndef SQUASHLAB_MODEL_LINUX_BRIDGE_CODEC_HEAP_H_
#define SQUASHLAB_MODEL_LINUX_BRIDGE_CODEC_HEAP_H_

#include <cstddef>
#include <mutex>
#include <unordered_set>

namespace squashlab::linux_bridge {

class CodecHeap {
 public:
  CodecHeap() = default;
  CodecHeap(const CodecHeap&) = delete;
  CodecHeap& operator=(const CodecHeap&) = delete;
  ~CodecHeap();

  void* Alloc(size_t bytes);  // nullptr when malloc fails
  void Free(void* p);         // p from Alloc, or nullptr
  bool Owns(const void* p) const;
  size_t live() const;

  // The allocator hooks of the three libraries, `opaque` a CodecHeap*.
  static void* ZAlloc(void* opaque, unsigned items, unsigned size);
  static void* AllocHook(void* opaque, size_t bytes);
  static void* CallocHook(void* opaque, size_t items, size_t size);
  static void* ArrayHook(void* opaque, size_t items,
                         size_t size);  // no zeroing
  static void FreeHook(void* opaque, void* p);

 private:
  mutable std::mutex mu_;
  std::unordered_set<const void*> live_;
};

}  // namespace squashlab::linux_bridge

#endif  // SQUASHLAB_MODEL_LINUX_BRIDGE_CODEC_HEAP_H_
