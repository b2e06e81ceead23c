// SPDX-License-Identifier: GPL-2.0-only
// This file implements the production half of Heap: SLUB as x86-64 3.13
// runs it without debugging. Objects come from size-class caches shared by
// every allocation of that size (kmalloc-8 ... kmalloc-8192, with 96 and
// 192; a kmem_cache by its name; larger requests from the page
// allocator), freed objects go on a per-CPU LIFO freelist linked through
// the objects themselves — the free pointer at offset 0 of a freed object
// (s->offset is 0 for caches without a constructor) — and nothing is
// poisoned or checked. A fresh slab's objects are chained the same way
// (each holds the next one's address), so a new object's first 8 bytes
// are a free pointer until its owner writes them.
//
// Free pointers are kernel-half addresses (0xffff88..., as on the seed's
// machine) that encode an arena offset: a stale one read by the code under
// test is the paging request it would be in the kernel when followed into
// unmapped memory (Kernel::CheckPtr), and never a host address.
#include <algorithm>
#include <cstring>

#include "model/kernel/slab.h"
#include "model/kernel/slab_arena.h"

namespace squashlab {
namespace {

constexpr uint64_t kFpTag = 0xffff880000000000ULL;
constexpr uint64_t kFpMask = 0x000000ffffffffffULL;
constexpr size_t kPageSize = 4096;

uint64_t EncodeFp(uintptr_t obj) {
  return obj == 0 ? 0 : kFpTag | (obj - SlabArena::Base());
}
// The object a free pointer names; garbage stays garbage (the next
// allocation from that freelist is the oops).
uintptr_t DecodeFp(uint64_t v) {
  if ((v & ~kFpMask) == kFpTag) return SlabArena::Base() + (v & kFpMask);
  return v;
}

}  // namespace

std::string Heap::CacheOf(size_t size, const char* cache) {
  if (cache != nullptr) return cache;
  if (KmallocSizeClass(size) == 0) return "pages-" + std::to_string(size);
  return KmallocCacheName(size);
}

Heap::SlubCache& Heap::Cache(const std::string& name, size_t size) {
  SlubCache& c = slub_[name];
  if (c.size == 0) {
    c.pages = name.find("pages-") != std::string::npos;
    if (name.find("kmalloc-") != std::string::npos) {
      c.size = KmallocSizeClass(size);
    } else {
      // A kmem_cache of the code under test: it has a constructor (the
      // inode cache's init_once), so SLUB keeps its free pointer after
      // the object, where the constructed fields stay intact.
      c.size = (size + 7) / 8 * 8;
      if (!c.pages) {
        c.fp_offset = c.size;
        c.size += 8;
      }
    }
    c.freelist.assign(static_cast<size_t>(ncpus_), 0);
  }
  return c;
}

// A new slab: at least a page and four objects, its objects chained
// through their free pointers in address order, the rest zero.
void Heap::NewSlab(SlubCache& c) {
  size_t n = std::max<size_t>(4, kPageSize / c.size);
  char* s = static_cast<char*>(Carve(n * c.size, 0));
  std::memset(s, 0, n * c.size);
  if (!c.pages) {
    for (size_t i = 0; i + 1 < n; i++) {
      uint64_t fp = EncodeFp(reinterpret_cast<uintptr_t>(s + (i + 1) * c.size));
      std::memcpy(s + i * c.size + c.fp_offset, &fp, sizeof fp);
    }
  }
  c.next = reinterpret_cast<uintptr_t>(s);
  c.end = c.next + n * c.size;
}

void* Heap::SlubAlloc(const std::string& name, size_t size, bool zero, int cpu,
                      uintptr_t* corrupt_head) {
  SlubCache& c = Cache(name, size);
  cpu = std::clamp(cpu, 0, ncpus_ - 1);
  uintptr_t head = c.freelist[static_cast<size_t>(cpu)];
  if (head != 0) {
    auto it = objects_.find(head);
    if (it == objects_.end() || it->second.cache != name) {
      // get_freepointer(s, object) on what is no object: the oops.
      *corrupt_head = head;
      return nullptr;
    }
    uint64_t fp = 0;
    if (!c.pages)
      std::memcpy(&fp, reinterpret_cast<void*>(head + c.fp_offset), sizeof fp);
    c.freelist[static_cast<size_t>(cpu)] =
        c.pages ? c.page_next[head] : DecodeFp(fp);
    if (zero) std::memset(reinterpret_cast<void*>(head), 0, size);
    return reinterpret_cast<void*>(head);
  }
  if (c.next + c.size > c.end) NewSlab(c);
  void* p = reinterpret_cast<void*>(c.next);
  c.next += c.size;
  if (zero) std::memset(p, 0, size);
  return p;
}

void Heap::SlubFree(uintptr_t p, const std::string& name, int cpu) {
  SlubCache& c = slub_[name];
  cpu = std::clamp(cpu, 0, ncpus_ - 1);
  uintptr_t& head = c.freelist[static_cast<size_t>(cpu)];
  if (c.pages) {
    c.page_next[p] = head;  // the page allocator keeps its lists aside
  } else {
    uint64_t fp = EncodeFp(head);
    std::memcpy(reinterpret_cast<void*>(p + c.fp_offset), &fp, sizeof fp);
  }
  head = p;
}

}  // namespace squashlab
