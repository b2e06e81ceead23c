// SPDX-License-Identifier: GPL-2.0-only
// This file implements the run's slab heap and kmalloc/kfree with poisoning,
// quarantine and the checks KASAN and debugobjects would make.
#include "model/kernel/slab.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "model/kernel/checkers/kasan.h"
#include "model/kernel/checkers/kmemleak.h"
#include "model/kernel/kernel.h"
#include "model/kernel/kernel_internal.h"
#include "model/kernel/quiescence.h"
#include "model/kernel/slab_arena.h"
#include "model/kernel/vmalloc.h"

namespace squashlab {

namespace {

// Chunks of the slab arena, recycled across runs (the first touch of fresh
// memory is what costs here; see docs/).
constexpr size_t kChunk = 256 << 10;
constexpr size_t kAlign = 16;
// A debug kernel's kmalloc redzone after every object (KASAN keeps at
// least 16 bytes between objects).
constexpr size_t kRedzone = 16;

}  // namespace

Heap::~Heap() {
  for (Chunk& c : chunks_) SlabArena::ReturnChunk(c.base, c.size, c.used);
}

void* Heap::Carve(size_t size, size_t redzone) {
  size_t need = (size + redzone + kAlign - 1) / kAlign * kAlign;
  if (chunks_.empty() || chunks_.back().size - chunks_.back().used < need) {
    Chunk c;
    c.size = std::max(need, kChunk);
    c.base = SlabArena::TakeChunk(c.size);
    c.size = (c.size + SlabArena::kGranule - 1) / SlabArena::kGranule *
             SlabArena::kGranule;
    chunks_.push_back(c);
  }
  Chunk& c = chunks_.back();
  char* p = c.base + c.used;
  c.used += need;
  SlabArena::Unpoison(p, size);
  if (need > size) {
    size_t live = (size + 7) / 8 * 8;  // the partial granule is Unpoison's
    if (need > live) SlabArena::Poison(p + live, need - live, kShadowRedzone);
  }
  return p;
}

void* Heap::Alloc(size_t size, bool zero, std::string site, std::string comm,
                  int cpu, const char* cache, uintptr_t* corrupt_head) {
  size_t real = size == 0 ? 1 : size;
  HeapObject obj;
  obj.size = real;
  obj.id = next_id_++;
  obj.site = std::move(site);
  obj.comm = std::move(comm);
  obj.cache = CacheOf(real, cache);
  void* p = nullptr;
  if (debug_) {
    p = Carve(real, kRedzone);
    std::memset(p, zero ? 0 : POISON_INUSE, real);
  } else {
    uintptr_t bad = 0;
    // One kmalloc-N for every allocating site, as SLUB: an object of
    // another type (or another subsystem's text) may take a freed one's
    // bytes. Pointers read from them are checked where they are used
    // (Kernel::CheckPtr: NULL, kernel-half, non-canonical; CheckCall;
    // the compiler-inserted checks of the code under test).
    p = SlubAlloc(obj.cache, real, zero, cpu, &bad);
    if (p == nullptr) {
      if (corrupt_head != nullptr) *corrupt_head = bad;
      return nullptr;
    }
  }
  objects_[reinterpret_cast<uintptr_t>(p)] = std::move(obj);
  return p;
}

Heap::FreeResult Heap::Free(void* p, size_t* size_out, std::string site,
                            std::string comm, int cpu) {
  auto it = objects_.find(reinterpret_cast<uintptr_t>(p));
  if (it == objects_.end()) return FreeResult::kInvalid;
  if (it->second.freed) {
    if (!debug_) SlubFree(it->first, it->second.cache, cpu);
    return FreeResult::kDoubleFree;
  }
  it->second.freed = true;
  it->second.free_site = std::move(site);
  it->second.free_comm = std::move(comm);
  *size_out = it->second.size;
  if (debug_) {
    std::memset(p, POISON_FREE, it->second.size);
    SlabArena::Poison(p, it->second.size, kShadowFreed);  // quarantined
  } else {
    SlubFree(it->first, it->second.cache, cpu);
  }
  return FreeResult::kOk;
}

bool Heap::Unmapped(const void* p) const {
  auto a = reinterpret_cast<uintptr_t>(p);
  return SlabArena::Contains(a) && SlabArena::ShadowOf(a) == kShadowNever;
}

const HeapObject* Heap::Find(const void* p, uintptr_t* base) const {
  uintptr_t a = reinterpret_cast<uintptr_t>(p);
  auto it = objects_.upper_bound(a);
  if (it == objects_.begin()) return nullptr;
  --it;
  if (a >= it->first + it->second.size) return nullptr;
  *base = it->first;
  return &it->second;
}

const HeapObject* Heap::Nearest(uintptr_t a, uintptr_t* base) const {
  auto it = objects_.upper_bound(a);
  if (it == objects_.begin()) return nullptr;
  --it;
  *base = it->first;
  return &it->second;
}

size_t KmallocSizeClass(size_t size) {
  // x86-64 SLUB: powers of two from 8 to 8192 plus kmalloc-96 and
  // kmalloc-192; larger requests go to the page allocator (0).
  if (size <= 8) return 8;
  if (size > 64 && size <= 96) return 96;
  if (size > 128 && size <= 192) return 192;
  if (size > 8192) return 0;
  size_t c = 16;
  while (c < size) c <<= 1;
  return c;
}

std::string KmallocCacheName(size_t size) {
  size_t c = KmallocSizeClass(size);
  return c == 0 ? "(page allocator)" : "kmalloc-" + std::to_string(c);
}

std::vector<std::pair<uintptr_t, HeapObject>> Heap::Live() const {
  std::vector<std::pair<uintptr_t, HeapObject>> live;
  for (const auto& [addr, obj] : objects_)
    if (!obj.freed) live.emplace_back(addr, obj);
  return live;
}

namespace {

// "bool squashlab::queue_work(workqueue_struct*, work_struct*)" ->
// "queue_work", the way the kernel names a function in a report.
std::string ShortName(const char* pretty) {
  std::string s = pretty;
  size_t paren = s.find('(');
  if (paren != std::string::npos && s.find("<lambda") == std::string::npos)
    s.resize(paren);
  size_t colon = s.rfind("::");
  if (colon != std::string::npos && s.find("<lambda") == std::string::npos)
    s = s.substr(colon + 2);
  size_t space = s.rfind(' ');
  if (space != std::string::npos && s.find("<lambda") == std::string::npos)
    s = s.substr(space + 1);
  return s;
}

void* AllocIn(size_t size, bool zero, gfp_t flags, const char* caller,
              const char* cache = nullptr) {
  Kernel& k = Kernel::Current();
  if (flags & __GFP_WAIT) k.MightSleep("kmalloc");
  k.Point("kmalloc", size);
  Task* t = k.current_task();
  uintptr_t corrupt = 0;
  void* p = nullptr;
  {
    std::lock_guard<RunMutex> l(KernelInternal::TreeLock(k));
    p = KernelInternal::Heap_(k).Alloc(size, zero, ShortName(caller),
                                       t ? t->Comm() : "setup", t ? t->cpu : 0,
                                       cache, &corrupt);
  }
  if (p == nullptr) {
    // A production SLUB reads the free pointer of its freelist's head,
    // and the head is no object: a freed object's first 8 bytes were
    // written while it was still linked — after a double kfree, by one of
    // the object's two owners. The 2013 oops: "stack segment" in
    // __kmalloc_track_caller, RAX (s->offset) 0, RBP (the head) text.
    k.Bug(Check::kSlabDoubleFree,
          "slab freelist corrupted: double kfree (oops in "
          "__kmalloc_track_caller)",
          "stack segment: 0000 [#1] SMP\nRIP: [<ffffffff81106026>] "
          "__kmalloc_track_caller+0x56/0x130\nRAX: 0000000000000000 RBP: " +
              Hex16(corrupt) + "\nthe freelist of " + KmallocCacheName(size) +
              " points at no object: a freed object's free pointer (offset "
              "0) was overwritten while the object was still linked");
  }
  return p;
}

std::string Hex(uintptr_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%016lx", static_cast<unsigned long>(v));
  return buf;
}

// debugobjects: a work_struct inside [p, p+size) that is still queued
// must not be freed. REQUIRES: tree_lock held.
void CheckFreedWork(Kernel& k, uintptr_t p, size_t size) {
  for (const auto& [work, st] : KernelInternal::Works(k)) {
    uintptr_t w = reinterpret_cast<uintptr_t>(work);
    if (w < p || w >= p + size) continue;
    // process_one_work deactivates the object when it claims the work
    // (before the function runs): only a queued work is active.
    if (st.queued) {
      k.Bug(
          Check::kOdebugFreeActiveWork,
          "ODEBUG: free active (active state 0) object type: work_struct",
          std::string("object ") + Hex(w) + " is queued" +
              "\nWARNING: at lib/debugobjects.c debug_print_object+0x85/0xa0");
    }
  }
}

}  // namespace

void* kmalloc(size_t size, gfp_t flags, const char* caller) {
  return AllocIn(size, false, flags, caller);
}
void* kzalloc(size_t size, gfp_t flags, const char* caller) {
  return AllocIn(size, true, flags, caller);
}
void* kcalloc(size_t n, size_t size, gfp_t flags, const char* caller) {
  return AllocIn(n * size, true, flags, caller);
}
void* kmem_cache_alloc_named(const char* cache, size_t size, gfp_t flags,
                             const char* caller) {
  return AllocIn(size, false, flags, caller, cache);
}

void kfree(const void* p, const char* caller) { FreeObject(p, caller, false); }

void FreeObject(const void* p, const char* caller, bool vm) {
  Kernel& k = Kernel::Current();
  // The point names the object's size (its cache; 0: not a slab object),
  // for the partial-order reduction. A live object's size never changes.
  uint64_t cache = 0;
  uintptr_t base = 0;
  if (p != nullptr) {
    std::lock_guard<RunMutex> l(KernelInternal::TreeLock(k));
    const HeapObject* obj = KernelInternal::Heap_(k).Find(p, &base);
    if (obj != nullptr && base == reinterpret_cast<uintptr_t>(p))
      cache = obj->size;
  }
  k.Point("kfree", cache);
  if (p == nullptr) return;  // kfree(NULL) is legal
  std::unique_lock<RunMutex> l(KernelInternal::TreeLock(k));
  const HeapObject* obj = KernelInternal::Heap_(k).Find(p, &base);
  // debugobjects is a debug kernel's: a production one frees silently.
  if (k.config().debug && obj != nullptr && !obj->freed &&
      base == reinterpret_cast<uintptr_t>(p))
    CheckFreedWork(k, base, obj->size);  // a report unwinds and unlocks
  if (!vm && obj != nullptr && obj->cache == kVmallocCache) {
    const std::string site = obj->site;
    l.unlock();
    KfreeOfVmalloc(k, reinterpret_cast<uintptr_t>(p), ShortName(caller), site);
    return;
  }
  if (obj != nullptr && obj->cache == kPageDataCache) {  // a page, not slab
    l.unlock();
    k.Bug(Check::kKasanDoubleFree,
          "BUG: KASAN: double-free or invalid-free in kfree",
          "invalid-free of " + Hex(reinterpret_cast<uintptr_t>(p)) +
              ": the address lies in a page of the page allocator, not in "
              "a slab object");
  }
  size_t size = 0;
  Task* t = k.current_task();
  Heap::FreeResult r = KernelInternal::Heap_(k).Free(
      const_cast<void*>(p), &size, ShortName(caller), t ? t->Comm() : "setup",
      t ? t->cpu : 0);
  l.unlock();
  if (r == Heap::FreeResult::kOk) return;
  // SLUB without debugging links the object into its freelist twice and
  // says nothing; the kernel dies later, in a kmalloc from that cache
  // (AllocIn).
  if (!k.config().debug && r == Heap::FreeResult::kDoubleFree) return;
  k.Bug(Check::kKasanDoubleFree,
        "BUG: KASAN: double-free or invalid-free in kfree",
        std::string(r == Heap::FreeResult::kDoubleFree ? "double-free"
                                                       : "invalid-free") +
            " of object at " + Hex(reinterpret_cast<uintptr_t>(p)));
}

void kasan_check_read(const void* p, size_t size, const char* caller) {
  KasanCheckAccess(reinterpret_cast<uintptr_t>(p), size, false,
                   ShortName(caller).c_str());
}
void kasan_check_write(const void* p, size_t size, const char* caller) {
  KasanCheckAccess(reinterpret_cast<uintptr_t>(p), size, true,
                   ShortName(caller).c_str());
}

namespace {

std::string Hex0x(uintptr_t v) { return "0x" + Hex16(v); }

// The object a bad address belongs to, or the one it lies past.
std::string DescribeAddress(Kernel& k, uintptr_t a) {
  uintptr_t base = 0;
  const HeapObject* obj = KernelInternal::Heap_(k).Nearest(a, &base);
  if (obj == nullptr)
    return "The buggy address lies in slab memory no object was ever allocated "
           "from\n";
  std::string cache = obj->cache;
  if (cache == kPageDataCache) {  // a page of the page allocator
    std::string s =
        "The buggy address belongs to the physical page at " + Hex0x(base) +
        " (" + std::to_string(obj->size) + " bytes), located " +
        std::to_string(a - base) +
        (a < base + obj->size ? " bytes inside it\n"
                              : " bytes to its right: the next physical page, "
                                "which KASAN reports only while it is free\n");
    s += "Allocated by task " + obj->comm + ":\n alloc_pages\n";
    if (obj->freed)
      s += "Freed by task " + obj->free_comm + ":\n __free_pages\n";
    return s;
  }
  std::string s =
      "The buggy address belongs to the object at " + Hex0x(base) +
      "\n which belongs to the cache " + cache + " of size " +
      std::to_string(obj->size) + "\nThe buggy address is located " +
      std::to_string(a - base) +
      (a < base + obj->size ? " bytes inside of " : " bytes to the right of ") +
      std::to_string(obj->size) + "-byte region [" + Hex0x(base) + ", " +
      Hex0x(base + obj->size) + ")\n";
  s += "Allocated by task " + obj->comm + ":\n kmalloc\n " + obj->site + "\n";
  if (obj->freed)
    s += "Freed by task " + obj->free_comm + ":\n kfree\n " + obj->free_site +
         "\n";
  return s;
}

}  // namespace

void KasanReportAccess(uintptr_t a, size_t size, bool write, const char* fn) {
  Kernel* kp = Kernel::CurrentOrNull();
  if (kp == nullptr || kp->fatal()) return;  // outside a run
  Kernel& k = *kp;
  if (!SlabArena::Contains(a)) {
    k.CheckPtr(reinterpret_cast<const void*>(a), fn);
    return;
  }
  std::unique_lock<RunMutex> l(KernelInternal::TreeLock(k));
  uintptr_t bad = a;
  while (bad < a + size && SlabArena::ByteOk(bad)) bad++;
  if (bad == a + size) return;  // another task's object changed meanwhile
  int8_t shadow = SlabArena::ShadowOf(bad);
  const char* what = write ? "Write" : "Read";
  if (!k.config().debug) {
    // No KASAN: only the MMU, on slab memory never mapped to an object.
    if (shadow != kShadowNever) return;
    l.unlock();
    k.Bug(Check::kSlabOutOfBounds,
          "BUG: unable to handle kernel paging request in " + std::string(fn),
          "BUG: unable to handle kernel paging request at " + Hex(bad) +
              "\nIP: [<ffffffff81000000>] " + fn + "\nOops: 0000 [#1] SMP\n(" +
              what + " past the last slab object)");
  }
  std::string task = k.current_task() ? k.current_task()->Comm() : "setup";
  std::string body = std::string(what) + " of size " + std::to_string(size) +
                     " at addr " + Hex(a) + " by task " + task + "\n" +
                     DescribeAddress(k, bad);
  // Past the end of a page lies the next physical page; KASAN's shadow
  // calls a free one use-after-free (and sees nothing in a used one).
  uintptr_t base = 0;
  const HeapObject* near = KernelInternal::Heap_(k).Nearest(bad, &base);
  const bool past_a_page = near != nullptr && near->cache == kPageDataCache &&
                           bad >= base + near->size;
  l.unlock();
  if (shadow == kShadowFreed || past_a_page)
    k.Bug(Check::kKasanUseAfterFree,
          "BUG: KASAN: use-after-free in " + std::string(fn),
          "BUG: KASAN: use-after-free in " + std::string(fn) + "\n" + body);
  k.Bug(Check::kKasanOutOfBounds,
        "BUG: KASAN: slab-out-of-bounds in " + std::string(fn),
        "BUG: KASAN: slab-out-of-bounds in " + std::string(fn) + "\n" + body);
}

static std::string Listing(
    const std::vector<std::pair<uintptr_t, HeapObject>>& objs) {
  std::string body;
  for (auto& [addr, obj] : objs) {
    body += "unreferenced object 0x" + Hex16(addr) + " (size " +
            std::to_string(obj.size) + "):\n  comm \"" + obj.comm +
            "\"\n  backtrace: kmalloc from " + obj.site + "\n";
  }
  return body;
}

// At quiescence no kmalloc object is left. Once a real tree's super block
// is gone, on the debug kernel, kmemleak's scan judges them: the objects
// nothing reaches are its report (one class per allocating function of the
// first). Otherwise, and for the objects a root still reaches, the listing is a
// lint: the model does not scan the scenario's own objects for references.
void CheckHeapAtQuiescence(Kernel& k) {
  auto live = KernelInternal::Heap_(k).Live();
  // The page cache's pages are the pages check's (page.cc), not kmalloc's.
  live.erase(std::remove_if(live.begin(), live.end(),
                            [](const auto& o) {
                              return o.second.cache == kPageDataCache;
                            }),
             live.end());
  if (live.empty()) return;
  std::vector<std::pair<uintptr_t, HeapObject>> leaked, kept;
  if (k.super_block_gone() && k.config().debug) {  // DEBUG_KMEMLEAK
    std::vector<KmemleakObject> objs;
    for (auto& [addr, obj] : live) objs.push_back({addr, obj.size});
    std::vector<size_t> lost = KmemleakUnreferenced(objs);
    std::vector<char> is_lost(live.size(), 0);
    for (size_t i : lost) is_lost[i] = 1;
    for (size_t i = 0; i < live.size(); i++)
      (is_lost[i] ? leaked : kept).push_back(live[i]);
  } else {
    kept = live;
  }
  if (!leaked.empty())
    k.Warn(Check::kKmemleakUnreferenced,
           "kmemleak: unreferenced object allocated in " +
               leaked.front().second.site,
           "kmemleak: " + std::to_string(leaked.size()) +
               " new suspected memory leaks\n" + Listing(leaked));
  if (!kept.empty())
    k.Lint(Check::kKmallocLeak, "kmemleak: suspected memory leak",
           "kmemleak: " + std::to_string(kept.size()) +
               " new suspected memory leaks\n" + Listing(kept));
}
const QuiescenceCheckRegistration kHeapAtQuiescence(50, "kmalloc",
                                                    CheckHeapAtQuiescence);

}  // namespace squashlab
