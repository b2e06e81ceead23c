// SPDX-License-Identifier: GPL-2.0-only
// This file implements the allocation calls of the header layer over the
// model's checked heap (kmalloc, kmem_cache, and vmalloc's region of its
// own): what the real code allocates is tracked, poisoned and leak-checked
// like a variant's.
// Caches are made at module load, outside any run, and live for the process.
#include "model/kernel/slab.h"

#include <string>

#include "model/kernel/fault_inject.h"
#include "model/kernel/kernel.h"
#include "model/kernel/vmalloc.h"
#include "model/linux/bridge/run_state.h"

struct kmem_cache {
  std::string name;
  unsigned int size = 0;
  void (*ctor)(void*) = nullptr;
};

namespace {

constexpr unsigned kGfpZero = 0x8000u;  // __GFP_ZERO of the header layer

const char* Caller(const char* fallback) {
  return squashlab::linux_bridge::Run().CallerOr(fallback);
}

void* Alloc(size_t size, gfp_t flags, const char* fallback) {
  const char* who = Caller(fallback);
  squashlab::gfp_t g = flags & ~kGfpZero;
  // slab_pre_alloc_hook -> should_failslab (mm/slub.c).
  if (squashlab::should_failslab(g, size)) return nullptr;
  if (flags & kGfpZero) return squashlab::kzalloc(size, g, who);
  return squashlab::kmalloc(size, g, who);
}

}  // namespace

extern "C" {

void* kmalloc(size_t size, gfp_t flags) {
  return Alloc(size, flags, "kmalloc");
}
void* kzalloc(size_t size, gfp_t flags) {
  return Alloc(size, flags | kGfpZero, "kzalloc");
}
void* kcalloc(size_t n, size_t size, gfp_t flags) {
  if (size != 0 && n > SIZE_MAX / size) return nullptr;
  return Alloc(n * size, flags | kGfpZero, "kcalloc");
}
void* kmalloc_array(size_t n, size_t size, gfp_t flags) {
  if (size != 0 && n > SIZE_MAX / size) return nullptr;
  return Alloc(n * size, flags, "kmalloc_array");
}
void kfree(const void* p) {
  if (p != nullptr) squashlab::kfree(p, Caller("kfree"));
}
void* vmalloc(unsigned long size) {
  return squashlab::vmalloc(size, Caller("vmalloc"));
}
void vfree(const void* p) { squashlab::vfree(p, Caller("vfree")); }
void kvfree(const void* p) { squashlab::kvfree(p, Caller("kvfree")); }

struct kmem_cache* kmem_cache_create(const char* name, unsigned int size,
                                     unsigned int, unsigned long,
                                     void (*ctor)(void*)) {
  return new kmem_cache{name, size, ctor};
}
void kmem_cache_destroy(struct kmem_cache* c) { delete c; }
void* kmem_cache_alloc(struct kmem_cache* c, gfp_t flags) {
  if (squashlab::should_failslab(flags & ~kGfpZero, c->size)) return nullptr;
  void* p = squashlab::kmem_cache_alloc_named(
      c->name.c_str(), c->size, flags & ~kGfpZero, Caller("kmem_cache_alloc"));
  if (p != nullptr && c->ctor != nullptr) c->ctor(p);
  return p;
}
void kmem_cache_free(struct kmem_cache*, void* p) {
  if (p != nullptr) squashlab::kfree(p, Caller("kmem_cache_free"));
}

}  // extern "C"
