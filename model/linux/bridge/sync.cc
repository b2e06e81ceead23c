// SPDX-License-Identifier: GPL-2.0-only
// This file implements the locking, waiting, preemption and per-CPU calls
// of the header layer over the model's objects: a C lock or wait queue holds
// a handle on a model object made by its *_init call, so every acquisition,
// sleep and wake is the model's (a scheduling point, checked).
#include <atomic>
#include <cstring>

#include "model/kernel/checkers/lockdep.h"
#include "model/kernel/kernel.h"
#include "model/kernel/lock_hooks.h"
#include "model/kernel/mutex.h"
#include "model/kernel/preempt.h"
#include "model/kernel/slab.h"
#include "model/kernel/wait_queue.h"
#include "model/linux/bridge/run_state.h"

namespace squashlab::linux_bridge {
namespace {

struct CWaitQueue {
  wait_queue_head_t wq;
  std::atomic<uint64_t> generation{0};
};

constexpr unsigned long kPercpuStride = 4096;  // SL_PERCPU_STRIDE

template <typename T>
T* Handle(void* obj, const char* fn) {
  if (obj == nullptr)
    Kernel::Current().Bug(
        ReportKind::kBadContext,
        std::string("BUG: ") + fn + " of an uninitialised lock",
        std::string(fn) +
            ": the object was never passed to its *_init "
            "call (lockdep: non-static key)");
  return static_cast<T*>(obj);
}

// An init site's file as the kernel's lockdep names it: from fs/ on, not
// where the tree was compiled.
const char* SiteFile(const char* file) {
  const char* fs = std::strstr(file, "fs/squashfs/");
  return fs != nullptr ? fs : file;
}

void Init(squashlab::mutex* m, const ::sl_lock_key& key) {
  squashlab::mutex_init(m, SiteFile(key.file), key.line, key.name);
}
void Init(squashlab::spinlock_t* l, const ::sl_lock_key& key) {
  squashlab::spin_lock_init(l, SiteFile(key.file), key.line, key.name);
}

// A lock's model object: the one its *_init call made, or for a lock
// defined statically (the handle is its key's address + 1) the run's own,
// made on its first use in the run.
template <typename T>
T* LockHandle(const void* c_lock, void* obj, const char* fn) {
  const auto tag = reinterpret_cast<uintptr_t>(obj);
  if ((tag & 1) == 0) return Handle<T>(obj, fn);
  const auto* key = reinterpret_cast<const ::sl_lock_key*>(tag - 1);
  RunState& rs = Run();
  std::lock_guard<std::mutex> l(rs.mu());
  void*& made = rs.static_locks()[c_lock];
  if (made == nullptr) {
    auto* o = Kernel::Current().New<T>();
    Init(o, *key);
    made = o;
  }
  return static_cast<T*>(made);
}

}  // namespace
}  // namespace squashlab::linux_bridge

using squashlab::Kernel;
using squashlab::linux_bridge::CWaitQueue;
using squashlab::linux_bridge::Handle;
using squashlab::linux_bridge::kPercpuStride;
using squashlab::linux_bridge::LockHandle;
using squashlab::linux_bridge::SiteFile;

extern "C" {

void sl_mutex_init(::mutex* m, const char* name, const char* file, int line) {
  auto* obj = Kernel::Current().New<squashlab::mutex>();
  squashlab::mutex_init(obj, SiteFile(file), line, name);
  m->sl_obj = obj;
}
static squashlab::mutex* M(::mutex* m, const char* fn) {
  return LockHandle<squashlab::mutex>(m, m->sl_obj, fn);
}
void mutex_lock(::mutex* m) { squashlab::mutex_lock(M(m, "mutex_lock")); }
void mutex_lock_nested(::mutex* m, unsigned int subclass) {
  squashlab::mutex_lock_nested(M(m, "mutex_lock_nested"), subclass);
}
int mutex_trylock(::mutex* m) {
  return squashlab::mutex_trylock(M(m, "mutex_trylock"));
}
void mutex_unlock(::mutex* m) { squashlab::mutex_unlock(M(m, "mutex_unlock")); }
int mutex_is_locked(::mutex* m) {
  return squashlab::mutex_is_locked(M(m, "mutex_is_locked"));
}
void mutex_destroy(::mutex* m) { (void)m; }

void sl_spin_lock_init(::spinlock_t* l, const char* name, const char* file,
                       int line) {
  auto* obj = Kernel::Current().New<squashlab::spinlock_t>();
  squashlab::spin_lock_init(obj, SiteFile(file), line, name);
  l->sl_obj = obj;
}
static squashlab::spinlock_t* S(::spinlock_t* l, const char* fn) {
  return LockHandle<squashlab::spinlock_t>(l, l->sl_obj, fn);
}
void spin_lock(::spinlock_t* l) { squashlab::spin_lock(S(l, "spin_lock")); }
void spin_lock_nested(::spinlock_t* l, unsigned int subclass) {
  squashlab::spin_lock_nested(S(l, "spin_lock_nested"), subclass);
}
void spin_unlock(::spinlock_t* l) {
  squashlab::spin_unlock(S(l, "spin_unlock"));
}

void init_waitqueue_head(::wait_queue_head_t* wq) {
  wq->sl_obj = Kernel::Current().New<CWaitQueue>();
}
void wake_up(::wait_queue_head_t* wq) {
  auto* w = Handle<CWaitQueue>(wq->sl_obj, "wake_up");
  w->generation.fetch_add(1);
  squashlab::wake_up(&w->wq);
}
void wake_up_all(::wait_queue_head_t* wq) { wake_up(wq); }
unsigned long sl_wait_generation(::wait_queue_head_t* wq) {
  return Handle<CWaitQueue>(wq->sl_obj, "wait_event")->generation.load();
}
void sl_wait_for_wake(::wait_queue_head_t* wq, unsigned long generation) {
  auto* w = Handle<CWaitQueue>(wq->sl_obj, "wait_event");
  Kernel& k = Kernel::Current();
  k.Point("wait_event", 0);
  k.Sleep(
      w->wq, [w, generation] { return w->generation.load() != generation; },
      "wait_event", 0);
}
void sl_might_sleep(const char* fn) { Kernel::Current().MightSleep(fn); }
void cond_resched(void) {
  Kernel& k = Kernel::Current();
  k.MightSleep("cond_resched");
  k.Point("cond_resched", 0);
}

void preempt_disable(void) { squashlab::preempt_disable(); }
void preempt_enable(void) { squashlab::preempt_enable(); }
int smp_processor_id(void) { return squashlab::smp_processor_id(); }
void migrate_disable(void) { squashlab::migrate_disable(); }
void migrate_enable(void) { squashlab::migrate_enable(); }
unsigned int num_possible_cpus(void) {
  return static_cast<unsigned>(Kernel::Current().config().ncpus);
}
unsigned int num_online_cpus(void) { return num_possible_cpus(); }
void rcu_barrier(void) {}

void* sl_alloc_percpu(size_t size, size_t align) {
  Kernel& k = Kernel::Current();
  if (size > kPercpuStride || align > kPercpuStride)
    k.Bug(squashlab::ReportKind::kAssertion,
          "BUG: alloc_percpu of an object larger than the per-CPU stride",
          "size " + std::to_string(size));
  return squashlab::kzalloc(kPercpuStride * k.config().ncpus,
                            squashlab::GFP_KERNEL, "alloc_percpu");
}
void free_percpu(void* p) {
  if (p != nullptr) squashlab::kfree(p);
}

// local_lock (include/linux/local_lock_internal.h): on a non-RT kernel
// preempt_disable and the lock's lockdep map (local_lock_acquire); on
// PREEMPT_RT migrate_disable and the CPU's own sleeping spinlock. Either
// way lockdep sees a lock of the class of local_lock_init's site.
void sl_local_lock_init(::local_lock_t* l, const char* name, const char* file,
                        int line) {
  auto* obj = Kernel::Current().New<squashlab::mutex>();
  squashlab::mutex_init(obj);
  obj->lock_class = squashlab::lockdep_class(SiteFile(file), line, name,
                                             squashlab::LockKind::kLocalLock);
  l->sl_obj = obj;
}
static ::local_lock_t* ThisCpu(::local_lock_t* base) {
  return reinterpret_cast<::local_lock_t*>(
      reinterpret_cast<char*>(base) +
      kPercpuStride * static_cast<unsigned>(squashlab::raw_smp_processor_id()));
}
void sl_local_lock(::local_lock_t* l) {
  if (!Kernel::Current().config().preempt_rt) {
    squashlab::preempt_disable();
    auto* m = Handle<squashlab::mutex>(ThisCpu(l)->sl_obj, "local_lock");
    squashlab::lockdep_acquire(m->lock_class, "local_lock", false);
    squashlab::kcsan_acquire(m);  // the CPU's previous holder's section
    return;
  }
  squashlab::migrate_disable();
  squashlab::mutex_lock(
      Handle<squashlab::mutex>(ThisCpu(l)->sl_obj, "local_lock"));
}
void sl_local_unlock(::local_lock_t* l) {
  if (!Kernel::Current().config().preempt_rt) {
    auto* m = Handle<squashlab::mutex>(ThisCpu(l)->sl_obj, "local_unlock");
    squashlab::lockdep_release(m->lock_class);
    squashlab::kcsan_release(m);
    squashlab::preempt_enable();
    return;
  }
  squashlab::mutex_unlock(
      Handle<squashlab::mutex>(ThisCpu(l)->sl_obj, "local_unlock"));
  squashlab::migrate_enable();
}

}  // extern "C"
