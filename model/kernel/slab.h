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
inline constexpr gfp_t GFP_NOWAIT = 0x0;  // no reclaim, never sleeps

struct HeapObject {
  size_t size = 0;
  bool freed = false;
  uint64_t id = 0;
  std::string site;       // the allocating function
  std::string comm;       // the allocating task
  std::string free_site;  // the freeing function (once freed)
  std::string free_comm;  // the freeing task
  std::string cache;      // kmalloc-N, a kmem_cache's name, pages-N
};

// The cache of the page cache pages' data (alloc_pages of order 0, not a
// kmalloc size class): KASAN sees the tree's loads and stores of a page
// like a slab object's, past its end (into the next physical page) and
// after it was freed; a production kernel hands a freed page out again.
inline constexpr const char* kPageDataCache = "pages-4096";
// vmalloc's objects (vmalloc.h): a region of their own, which kfree must
// not be handed and vfree needs.
inline constexpr const char* kVmallocCache = "vmalloc";

// Not thread-safe: the Kernel's tree_lock guards it.
//
// Production mode is SLUB as x86-64 3.13 runs it (heap_slub.cc): size-class
// caches shared by every object of a size (kmalloc-8 ... kmalloc-8192 with
// 96 and 192), per-CPU LIFO freelists linked through the free pointer at
// offset 0 of each freed object, no poisoning: another user's allocation of
// the same size lands in a freed object, and a freed object's first 8
// bytes are a free pointer (a kernel-half address, 0xffff88...). The
// variants' objects are plain bytes (no constructors), so mixed reuse is
// defined behaviour in the host; pointers the code under test reads from
// reused bytes are checked where they are used (Kernel::CheckPtr, the
// compiler-inserted checks). A load from arena memory no slab was carved
// from is an unhandled paging request (Unmapped).
//
// Both kernels carve objects from chunks of the process's slab arena
// (slab_arena.h) and keep its shadow: on a debug kernel a live object's
// bytes are accessible, the bytes after it up to the next 16-byte boundary
// and a 16-byte redzone are not, a freed object is kShadowFreed for the
// rest of the run; on a production kernel every carved byte stays
// accessible (nothing checks a freed object), only never-carved memory is
// not. The compiler-inserted checks of the code under test (kasan.cc)
// read that shadow.
class Heap {
 public:
  explicit Heap(bool debug = true, int ncpus = 1)
      : debug_(debug), ncpus_(ncpus < 1 ? 1 : ncpus) {}
  ~Heap();
  Heap(const Heap&) = delete;
  Heap& operator=(const Heap&) = delete;

  // `cache`: a kmem_cache's name, or nullptr for kmalloc's size classes.
  // Production: from the freelist of `cpu`; when that freelist's head is
  // no object of the cache (a freed object's free pointer was overwritten:
  // a double kfree whose object was handed out and written, or a write
  // after kfree), returns nullptr and sets *corrupt_head to it: the oops
  // SLUB takes reading a free pointer there.
  void* Alloc(size_t size, bool zero, std::string site, std::string comm,
              int cpu = 0, const char* cache = nullptr,
              uintptr_t* corrupt_head = nullptr);
  enum class FreeResult { kOk, kDoubleFree, kInvalid };
  // Debug: poisons and quarantines the object starting at p. Production:
  // pushes it on `cpu`'s freelist of its cache (its first 8 bytes become
  // the free pointer); a second free links it again (and returns
  // kDoubleFree: nothing is printed at the cause).
  FreeResult Free(void* p, size_t* size_out, std::string site = "",
                  std::string comm = "", int cpu = 0);
  // The object containing address p (live or freed), or nullptr.
  const HeapObject* Find(const void* p, uintptr_t* base) const;
  // The object at or below address a (a may lie past its end), or nullptr.
  const HeapObject* Nearest(uintptr_t a, uintptr_t* base) const;
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
  };
  // `size` bytes from the current chunk, followed by `redzone` bytes
  // (and the padding to 16) nobody may touch.
  void* Carve(size_t size, size_t redzone);

  // Production (heap_slub.cc).
  struct SlubCache {
    size_t size = 0;                  // the object stride
    size_t fp_offset = 0;             // where a free object's pointer is
    bool pages = false;               // the page allocator (> 8192 bytes)
    std::vector<uintptr_t> freelist;  // per CPU: the head, 0 when empty
    std::map<uintptr_t, uintptr_t> page_next;  // pages: the list aside
    uintptr_t next = 0, end = 0;  // the current slab's never-used objects
  };
  static std::string CacheOf(size_t size, const char* cache);
  SlubCache& Cache(const std::string& name, size_t size);
  void NewSlab(SlubCache& c);
  void* SlubAlloc(const std::string& name, size_t size, bool zero, int cpu,
                  uintptr_t* corrupt_head);
  void SlubFree(uintptr_t p, const std::string& name, int cpu);

  bool debug_;
  int ncpus_;
  std::map<uintptr_t, HeapObject> objects_;
  uint64_t next_id_ = 0;
  std::vector<Chunk> chunks_;
  std::map<std::string, SlubCache> slub_;
};

// The kmalloc cache a request of `size` bytes comes from on x86-64 SLUB
// (8..8192 with 96 and 192; 0: larger, the page allocator) and its name.
size_t KmallocSizeClass(size_t size);
std::string KmallocCacheName(size_t size);

void* kmalloc(size_t size, gfp_t flags,
              const char* caller = __builtin_FUNCTION());
void* kzalloc(size_t size, gfp_t flags,
              const char* caller = __builtin_FUNCTION());
void* kcalloc(size_t n, size_t size, gfp_t flags,
              const char* caller = __builtin_FUNCTION());
// kmem_cache_alloc from the cache named `cache` of `size`-byte objects
// (SLUB keeps a cache with a constructor apart from the kmalloc caches).
void* kmem_cache_alloc_named(const char* cache, size_t size, gfp_t flags,
                             const char* caller);
// Reports a double free, an invalid free, and freeing an object that holds a
// queued (or, from another task, running) work_struct.
void kfree(const void* p, const char* caller = __builtin_FUNCTION());
// kfree's free of one object; `vm`: the caller is vfree (vmalloc.h), which
// may free what vmalloc made (kfree may not).
void FreeObject(const void* p, const char* caller, bool vm);

// KASAN's explicit checks (kasan_check_read/write in the kernel), for the
// kernel layer's own accesses to objects the code under test passed in:
// report use-after-free when [p, p+size) touches a freed object, and
// slab-out-of-bounds when it touches a redzone or never-allocated slab
// memory. The code under test itself needs no calls: it is compiled with
// -fsanitize=kernel-address and every load and store is checked
// (kasan.cc).
void kasan_check_read(const void* p, size_t size,
                      const char* caller = __builtin_FUNCTION());
void kasan_check_write(const void* p, size_t size,
                       const char* caller = __builtin_FUNCTION());

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_KERNEL_SLAB_H_
