// This file implements the run's slab heap and kmalloc/kfree with poisoning,
// quarantine and the checks KASAN and debugobjects would make.
#include "model/slab.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "model/kernel.h"

namespace squashlab {

Heap::~Heap() {
  for (auto& [addr, obj] : objects_) std::free(reinterpret_cast<void*>(addr));
}

void* Heap::Alloc(size_t size, bool zero, std::string site, std::string comm) {
  size_t real = size == 0 ? 1 : size;
  void* p = std::malloc(real);
  std::memset(p, zero ? 0 : POISON_INUSE, real);
  HeapObject obj;
  obj.size = real;
  obj.id = next_id_++;
  obj.site = std::move(site);
  obj.comm = std::move(comm);
  objects_[reinterpret_cast<uintptr_t>(p)] = std::move(obj);
  return p;
}

Heap::FreeResult Heap::Free(void* p, size_t* size_out) {
  auto it = objects_.find(reinterpret_cast<uintptr_t>(p));
  if (it == objects_.end()) return FreeResult::kInvalid;
  if (it->second.freed) return FreeResult::kDoubleFree;
  it->second.freed = true;
  *size_out = it->second.size;
  std::memset(p, POISON_FREE, it->second.size);
  return FreeResult::kOk;
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

// "bool squashlab::queue_work(workqueue_struct*, work_struct*)" -> "queue_work",
// the way the kernel names a function in a report.
std::string ShortName(const char* pretty) {
  std::string s = pretty;
  size_t paren = s.find('(');
  if (paren != std::string::npos && s.find("<lambda") == std::string::npos) s.resize(paren);
  size_t colon = s.rfind("::");
  if (colon != std::string::npos && s.find("<lambda") == std::string::npos) s = s.substr(colon + 2);
  size_t space = s.rfind(' ');
  if (space != std::string::npos && s.find("<lambda") == std::string::npos) s = s.substr(space + 1);
  return s;
}

void* AllocIn(size_t size, bool zero, const char* caller) {
  Kernel& k = Kernel::Current();
  k.Point("kmalloc", size);
  Task* t = k.current_task();
  std::lock_guard<std::mutex> l(k.tree_lock());
  return k.heap().Alloc(size, zero, ShortName(caller), t ? t->Comm() : "setup");
}

std::string Hex(uintptr_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%016lx", static_cast<unsigned long>(v));
  return buf;
}

// debugobjects: a work_struct inside [p, p+size) that is still queued, or
// running in another task, must not be freed. REQUIRES: tree_lock held.
void CheckFreedWork(Kernel& k, uintptr_t p, size_t size) {
  Task* t = k.current_task();
  for (const auto& [work, st] : k.works()) {
    uintptr_t w = reinterpret_cast<uintptr_t>(work);
    if (w < p || w >= p + size) continue;
    bool self = st.running == 1 && !st.queued && t && st.runner_id == t->id;
    if ((st.queued || st.running > 0) && !self) {
      k.Bug(ReportKind::kWorkFreedActive,
            "ODEBUG: free active (active state 0) object type: work_struct",
            std::string("object ") + Hex(w) + (st.queued ? " is queued" : " is running") +
                "\nWARNING: at lib/debugobjects.c debug_print_object+0x85/0xa0");
    }
  }
}

}  // namespace

void* kmalloc(size_t size, gfp_t, const char* caller) {
  return AllocIn(size, false, caller);
}
void* kzalloc(size_t size, gfp_t, const char* caller) {
  return AllocIn(size, true, caller);
}
void* kcalloc(size_t n, size_t size, gfp_t, const char* caller) {
  return AllocIn(n * size, true, caller);
}

void kfree(const void* p) {
  Kernel& k = Kernel::Current();
  k.Point("kfree", 0);
  if (p == nullptr) return;  // kfree(NULL) is legal
  std::unique_lock<std::mutex> l(k.tree_lock());
  uintptr_t base = 0;
  const HeapObject* obj = k.heap().Find(p, &base);
  if (obj != nullptr && !obj->freed && base == reinterpret_cast<uintptr_t>(p))
    CheckFreedWork(k, base, obj->size);  // a report unwinds and unlocks
  size_t size = 0;
  Heap::FreeResult r = k.heap().Free(const_cast<void*>(p), &size);
  l.unlock();
  if (r == Heap::FreeResult::kOk) return;
  k.Bug(ReportKind::kDoubleFree, "BUG: KASAN: double-free or invalid-free in kfree",
        std::string(r == Heap::FreeResult::kDoubleFree ? "double-free" : "invalid-free") +
            " of object at " + Hex(reinterpret_cast<uintptr_t>(p)));
}

static void KasanCheck(const void* p, size_t size, const char* what, const char* fn) {
  Kernel& k = Kernel::Current();
  k.CheckPtr(p, fn);
  std::unique_lock<std::mutex> l(k.tree_lock());
  uintptr_t base = 0;
  const HeapObject* obj = k.heap().Find(p, &base);
  if (obj == nullptr || !obj->freed) return;
  std::string body = std::string(what) + " of size " + std::to_string(size) + " at addr " +
                     Hex(reinterpret_cast<uintptr_t>(p)) + "\nThe buggy address belongs to the object at " +
                     Hex(base) + " which belongs to the cache kmalloc-" + std::to_string(obj->size) +
                     "\nAllocated by " + obj->comm + " in " + obj->site;
  l.unlock();
  k.Bug(ReportKind::kUseAfterFree, "BUG: KASAN: use-after-free in " + std::string(fn), body);
}

void kasan_check_read(const void* p, size_t size, const char* caller) {
  KasanCheck(p, size, "Read", ShortName(caller).c_str());
}
void kasan_check_write(const void* p, size_t size, const char* caller) {
  KasanCheck(p, size, "Write", ShortName(caller).c_str());
}

}  // namespace squashlab
