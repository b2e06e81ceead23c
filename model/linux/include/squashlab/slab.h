/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * This file implements the allocation calls of the kernel headers
 * fs/squashfs uses (kmalloc and friends, kmem_cache, vmalloc) over the
 * model's checked heap: a sleeping gfp is a might_sleep point, a freed
 * object is poisoned on a debug kernel.
 */
#ifndef SQUASHLAB_LINUX_SLAB_H_
#define SQUASHLAB_LINUX_SLAB_H_

#include <squashlab/base.h>

/* The bit values are 3.13's (__GFP_WAIT as the reclaim bit), as the
 * model's allocator reads them. */
#define __GFP_RECLAIM 0x10u
#define __GFP_IO 0x40u
#define __GFP_FS 0x80u
#define __GFP_NOWARN 0x200u
#define __GFP_ZERO 0x8000u
#define __GFP_ACCOUNT 0x400000u
#define GFP_KERNEL (__GFP_RECLAIM | __GFP_IO | __GFP_FS)
#define GFP_NOFS (__GFP_RECLAIM | __GFP_IO)
#define GFP_NOIO (__GFP_RECLAIM)
#define GFP_ATOMIC 0x20u
#define GFP_NOWAIT 0x0u
#define GFP_USER GFP_KERNEL

void *kmalloc(size_t size, gfp_t flags);
void *kzalloc(size_t size, gfp_t flags);
void *kcalloc(size_t n, size_t size, gfp_t flags);
void *kmalloc_array(size_t n, size_t size, gfp_t flags);
void kfree(const void *p);
void *vmalloc(unsigned long size);
void vfree(const void *p);
void kvfree(const void *p);
#define kmalloc(s, f) SL_AT(kmalloc(s, f))
#define kzalloc(s, f) SL_AT(kzalloc(s, f))
#define kcalloc(n, s, f) SL_AT(kcalloc(n, s, f))
#define kmalloc_array(n, s, f) SL_AT(kmalloc_array(n, s, f))
#define kfree(p) SL_AT(kfree(p))
#define vmalloc(s) SL_AT(vmalloc(s))
#define vfree(p) SL_AT(vfree(p))

struct kmem_cache;
#define SLAB_RECLAIM_ACCOUNT 0x20000u
#define SLAB_ACCOUNT 0x4000000u
#define SLAB_MEM_SPREAD 0
#define SLAB_HWCACHE_ALIGN 0x2000u
struct kmem_cache *kmem_cache_create(const char *name, unsigned int size,
                                     unsigned int align, unsigned long flags,
                                     void (*ctor)(void *));
void kmem_cache_destroy(struct kmem_cache *c);
void *kmem_cache_alloc(struct kmem_cache *c, gfp_t flags);
void kmem_cache_free(struct kmem_cache *c, void *p);
#define kmem_cache_alloc(c, f) SL_AT(kmem_cache_alloc(c, f))
#define kmem_cache_free(c, p) SL_AT(kmem_cache_free(c, p))

#endif /* SQUASHLAB_LINUX_SLAB_H_ */
