// SPDX-License-Identifier: GPL-2.0-only
// This file implements the run's slab heap and kmalloc/kfree with poisoning,
// quarantine and the checks KASAN and debugobjects would make.
#include "model/kernel/slab.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "model/kernel/kernel.h"
#include "model/kernel/kernel_internal.h"
#include "model/kernel/quiescence.h"

namespace squashlab {

namespace {

// Production chunks, reused across runs (the first touch of fresh memory is
// what costs here; see docs/).
constexpr size_t kChunk = 256 << 10;
constexpr size_t kGuard = 64 << 10;
constexpr size_t kAlign = 16;

std::mutex g_pool_mu;
std::vector<char*>& Pool() {
  static auto* pool = new std::vector<char*>;
  return *pool;
}

std::string CacheKey(const HeapObject& obj) {
  return obj.site + "/" + std::to_string(obj.size);
}

}  // namespace

Heap::~Heap() {
  if (debug_) {
    for (auto& [addr, obj] : objects_) std::free(reinterpret_cast<void*>(addr));
    return;
  }
  std::lock_guard<std::mutex> l(g_pool_mu);
  for (Chunk& c : chunks_) {
    if (c.pooled)
      Pool().push_back(c.base);
    else
      delete[] c.base;
  }
}

void* Heap::Carve(size_t size) {
  size_t need = (size + kAlign - 1) / kAlign * kAlign;
  if (chunks_.empty() || chunks_.back().size - chunks_.back().used < need) {
    Chunk c;
    if (need <= kChunk) {
      std::lock_guard<std::mutex> l(g_pool_mu);
      if (!Pool().empty()) {
        c.base = Pool().back();
        Pool().pop_back();
      }
      c.pooled = true;
      c.size = kChunk;
    } else {
      c.size = need;
    }
    if (c.base == nullptr) c.base = new char[c.size];
    chunks_.push_back(c);
  }
  Chunk& c = chunks_.back();
  char* p = c.base + c.used;
  c.used += need;
  return p;
}

void* Heap::Alloc(size_t size, bool zero, std::string site, std::string comm,
                  bool* corrupt) {
  size_t real = size == 0 ? 1 : size;
  HeapObject obj;
  obj.size = real;
  obj.id = next_id_++;
  obj.site = std::move(site);
  obj.comm = std::move(comm);
  void* p = nullptr;
  if (debug_) {
    p = std::malloc(real);
    std::memset(p, zero ? 0 : POISON_INUSE, real);
  } else {
    auto& list = free_[CacheKey(obj)];
    if (!list.empty()) {  // the most recently freed object, as SLUB's freelist
      p = reinterpret_cast<void*>(list.back());
      list.pop_back();
      auto live = objects_.find(reinterpret_cast<uintptr_t>(p));
      if (live != objects_.end() && !live->second.freed) {
        if (corrupt != nullptr) *corrupt = true;  // linked twice, in use
        return p;
      }
      if (zero) std::memset(p, 0, real);
    } else {
      p = Carve(real);
      std::memset(p, 0, real);  // a fresh slab page: deterministic contents
    }
  }
  objects_[reinterpret_cast<uintptr_t>(p)] = std::move(obj);
  return p;
}

Heap::FreeResult Heap::Free(void* p, size_t* size_out) {
  auto it = objects_.find(reinterpret_cast<uintptr_t>(p));
  if (it == objects_.end()) return FreeResult::kInvalid;
  if (it->second.freed) {
    if (!debug_) free_[CacheKey(it->second)].push_back(it->first);
    return FreeResult::kDoubleFree;
  }
  it->second.freed = true;
  *size_out = it->second.size;
  if (debug_)
    std::memset(p, POISON_FREE, it->second.size);
  else
    free_[CacheKey(it->second)].push_back(it->first);
  return FreeResult::kOk;
}

bool Heap::Unmapped(const void* p) const {
  auto a = reinterpret_cast<uintptr_t>(p);
  for (const Chunk& c : chunks_) {
    auto base = reinterpret_cast<uintptr_t>(c.base);
    if (a >= base + c.used && a < base + c.size + kGuard) return true;
  }
  return false;
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

void* AllocIn(size_t size, bool zero, gfp_t flags, const char* caller) {
  Kernel& k = Kernel::Current();
  if (flags & __GFP_WAIT) k.MightSleep("kmalloc");
  k.Point("kmalloc", size);
  Task* t = k.current_task();
  bool corrupt = false;
  void* p = nullptr;
  {
    std::lock_guard<RunMutex> l(KernelInternal::TreeLock(k));
    p = KernelInternal::Heap_(k).Alloc(size, zero, ShortName(caller),
                                       t ? t->Comm() : "setup", &corrupt);
  }
  if (corrupt) {
    // A production SLUB after a double kfree: the object came back once
    // already and its owner wrote over the free pointer; this allocation
    // follows it (the 2013 oops: "stack segment" in
    // __kmalloc_track_caller).
    k.Bug(Check::kSlabDoubleFree,
          "slab freelist corrupted: double kfree (oops in "
          "__kmalloc_track_caller)",
          "stack segment: 0000 [#1] SMP\nRIP: [<ffffffff81106026>] "
          "__kmalloc_track_caller+0x56/0x130\nthe object at " +
              Hex16(reinterpret_cast<uintptr_t>(p)) +
              " was freed twice: the cache handed it out once and now follows "
              "the free pointer its owner overwrote");
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

void kfree(const void* p) {
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
  size_t size = 0;
  Heap::FreeResult r =
      KernelInternal::Heap_(k).Free(const_cast<void*>(p), &size);
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

// KASAN on a debug kernel; on a production one only what the MMU would
// catch: a load from slab memory that was never mapped to an object.
static void KasanCheck(const void* p, size_t size, const char* what,
                       const char* fn) {
  Kernel& k = Kernel::Current();
  k.CheckPtr(p, fn);
  std::unique_lock<RunMutex> l(KernelInternal::TreeLock(k));
  if (!k.config().debug) {
    if (!KernelInternal::Heap_(k).Unmapped(p)) return;
    l.unlock();
    k.Bug(Check::kSlabOutOfBounds,
          "BUG: unable to handle kernel paging request in " + std::string(fn),
          "BUG: unable to handle kernel paging request at " +
              Hex(reinterpret_cast<uintptr_t>(p)) +
              "\nIP: [<ffffffff81000000>] " + fn + "\nOops: 0000 [#1] SMP\n(" +
              what + " past the last slab object)");
  }
  uintptr_t base = 0;
  const HeapObject* obj = KernelInternal::Heap_(k).Find(p, &base);
  if (obj == nullptr || !obj->freed) return;
  std::string body = std::string(what) + " of size " + std::to_string(size) +
                     " at addr " + Hex(reinterpret_cast<uintptr_t>(p)) +
                     "\nThe buggy address belongs to the object at " +
                     Hex(base) + " which belongs to the cache kmalloc-" +
                     std::to_string(obj->size) + "\nAllocated by " + obj->comm +
                     " in " + obj->site;
  l.unlock();
  k.Bug(Check::kKasanUseAfterFree,
        "BUG: KASAN: use-after-free in " + std::string(fn), body);
}

void kasan_check_read(const void* p, size_t size, const char* caller) {
  KasanCheck(p, size, "Read", ShortName(caller).c_str());
}
void kasan_check_write(const void* p, size_t size, const char* caller) {
  KasanCheck(p, size, "Write", ShortName(caller).c_str());
}

// At quiescence no kmalloc object is left (kmemleak's listing).
void CheckHeapAtQuiescence(Kernel& k) {
  auto live = KernelInternal::Heap_(k).Live();
  if (live.empty()) return;
  std::string body = "kmemleak: " + std::to_string(live.size()) +
                     " new suspected memory leaks\n";
  for (auto& [addr, obj] : live) {
    body += "unreferenced object 0x" + Hex16(addr) + " (size " +
            std::to_string(obj.size) + "):\n  comm \"" + obj.comm +
            "\"\n  backtrace: kmalloc from " + obj.site + "\n";
  }
  k.Lint(Check::kKmallocLeak, "kmemleak: suspected memory leak", body);
}
const QuiescenceCheckRegistration kHeapAtQuiescence(50, "kmalloc",
                                                    CheckHeapAtQuiescence);

}  // namespace squashlab
