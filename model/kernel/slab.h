// SPDX-License-Identifier: GPL-2.0-only
// This file implements Heap, the slab allocator of one run, and the kernel's
// kmalloc / kzalloc / kcalloc / kfree over it. On a debug kernel, as SLUB
// debugging and KASAN do, new objects are filled with POISON_INUSE (0x5a)
// and freed ones with POISON_FREE (0x6b); freed memory is quarantined for
// the whole run (never reused), so a stale pointer always lands on poison
// or on a known-freed object. On a production kernel (KernelConfig::debug
// off) nothing is poisoned: kfree keeps the object's bytes and the next
// allocation from the same cache gets the most recently freed object back,
// stale fields and all (kcalloc/kzalloc zero it).
#ifndef SQUASHLAB_MODEL_KERNEL_SLAB_H_
#define SQUASHLAB_MODEL_KERNEL_SLAB_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace squashlab {

inline constexpr unsigned char POISON_INUSE = 0x5a;
inline constexpr unsigned char POISON_FREE = 0x6b;
inline constexpr uint64_t kPoisonFreePtr = 0x6b6b6b6b6b6b6b6bULL;
inline constexpr uint64_t kPoisonInusePtr = 0x5a5a5a5a5a5a5a5aULL;

using gfp_t = unsigned;
// 3.13's bits: __GFP_WAIT is what lets an allocation sleep (might_sleep_if
// in slab_pre_alloc_hook; __GFP_DIRECT_RECLAIM in 6.x).
inline constexpr gfp_t __GFP_WAIT = 0x10;
inline constexpr gfp_t GFP_NOIO = 0x10;
inline constexpr gfp_t GFP_KERNEL = 0xd0;
inline constexpr gfp_t GFP_NOFS = 0x50;
inline constexpr gfp_t GFP_ATOMIC = 0x20;

struct HeapObject {
  size_t size = 0;
  bool freed = false;
  uint64_t id = 0;
  std::string site;  // the allocating function
  std::string comm;  // the allocating task
};

// Not thread-safe: the Kernel's tree_lock guards it.
//
// Production mode. A cache is an allocation site and size (a dedicated
// kmem_cache per object type): a stale pointer always lands on an object of
// its own type, so the variants' plain C++ can run on recycled bytes without
// undefined behaviour in the host. (Real kmalloc caches mix types of one
// size; the seed's failures need no such mixing.) Objects are carved from
// arena chunks reused across runs; a load from a chunk's never-allocated
// tail, or from the guard range after it, is an unhandled paging request
// (Unmapped): a read walking off an array with a stale count stops there.
class Heap {
 public:
  explicit Heap(bool debug = true) : debug_(debug) {}
  ~Heap();
  Heap(const Heap&) = delete;
  Heap& operator=(const Heap&) = delete;

  // Production: `corrupt` (if set) is told when the cache's freelist
  // handed out an object that is live (it was freed twice: SLUB links it
  // twice, and the allocation after the first reuse follows a free
  // pointer its owner has overwritten).
  void* Alloc(size_t size, bool zero, std::string site, std::string comm,
              bool* corrupt = nullptr);
  enum class FreeResult { kOk, kDoubleFree, kInvalid };
  // Debug: poisons and quarantines the object starting at p. Production:
  // returns it to its cache's free list; a second free links it again
  // (and returns kDoubleFree: nothing is printed at the cause).
  FreeResult Free(void* p, size_t* size_out);
  // The object containing address p (live or freed), or nullptr.
  const HeapObject* Find(const void* p, uintptr_t* base) const;
  // Objects never freed, in allocation order.
  std::vector<std::pair<uintptr_t, HeapObject>> Live() const;
  // Production: p lies in slab memory no object was ever carved from.
  bool Unmapped(const void* p) const;
  bool debug() const { return debug_; }

 private:
  struct Chunk {
    char* base = nullptr;
    size_t size = 0;
    size_t used = 0;
    bool pooled = false;
  };
  void* Carve(size_t size);

  bool debug_;
  std::map<uintptr_t, HeapObject> objects_;
  uint64_t next_id_ = 0;
  std::vector<Chunk> chunks_;  // production
  std::map<std::string, std::vector<uintptr_t>>
      free_;  // production: LIFO per cache
};

void* kmalloc(size_t size, gfp_t flags,
              const char* caller = __builtin_FUNCTION());
void* kzalloc(size_t size, gfp_t flags,
              const char* caller = __builtin_FUNCTION());
void* kcalloc(size_t n, size_t size, gfp_t flags,
              const char* caller = __builtin_FUNCTION());
// Reports a double free, an invalid free, and freeing an object that holds a
// queued (or, from another task, running) work_struct.
void kfree(const void* p);

// KASAN's explicit checks, for variant code reading fields of kmalloc'd
// objects: reports use-after-free when [p, p+size) lies in a freed object.
void kasan_check_read(const void* p, size_t size,
                      const char* caller = __builtin_FUNCTION());
void kasan_check_write(const void* p, size_t size,
                       const char* caller = __builtin_FUNCTION());

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_KERNEL_SLAB_H_
