/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * This file implements the locking and waiting calls of the kernel headers
 * fs/squashfs uses (mutex, spinlock, wait queues, local_lock, per-CPU
 * data, preemption, CPU counts) over the model's objects: every call that
 * can sleep or lock is a scheduling point of the explorer.
 */
#ifndef SQUASHLAB_LINUX_SCHED_H_
#define SQUASHLAB_LINUX_SCHED_H_

#include <squashlab/base.h>

/* A lock's lockdep class is its init site, as the static lock_class_key
 * that the kernel's mutex_init and spin_lock_init macros define there, and
 * its name in lockdep's reports the macro's argument ("&msblk->mutex"). A
 * lock defined by DEFINE_MUTEX or DEFINE_SPINLOCK is of the class of its
 * definition, named by it: its handle points (tagged by its low bit) at
 * that key, and each run makes its model object on first use. */
#define SL_STATIC_LOCK(name)                                            \
  {                                                                     \
    (void *)((const char *)&(const struct sl_lock_key){#name, __FILE__, \
                                                       __LINE__} +      \
             1)                                                         \
  }
void sl_mutex_init(struct mutex *m, const char *name, const char *file,
                   int line);
#define mutex_init(m) sl_mutex_init(m, #m, __FILE__, __LINE__)
#define DEFINE_MUTEX(name) struct mutex name = SL_STATIC_LOCK(name)
void mutex_lock(struct mutex *m);
/* lockdep's nesting annotation: subclass N > 0 is a class of its own. */
void mutex_lock_nested(struct mutex *m, unsigned int subclass);
int mutex_trylock(struct mutex *m);
void mutex_unlock(struct mutex *m);
int mutex_is_locked(struct mutex *m);
void mutex_destroy(struct mutex *m);
#define mutex_lock(m) SL_AT(mutex_lock(m))
#define mutex_lock_nested(m, s) SL_AT(mutex_lock_nested(m, s))
#define mutex_unlock(m) SL_AT(mutex_unlock(m))
#define mutex_trylock(m) SL_AT(mutex_trylock(m))

void sl_spin_lock_init(spinlock_t *l, const char *name, const char *file,
                       int line);
#define spin_lock_init(l) sl_spin_lock_init(l, #l, __FILE__, __LINE__)
#define DEFINE_SPINLOCK(name) spinlock_t name = SL_STATIC_LOCK(name)
void spin_lock(spinlock_t *l);
void spin_lock_nested(spinlock_t *l, unsigned int subclass);
void spin_unlock(spinlock_t *l);
#define spin_lock(l) SL_AT(spin_lock(l))
#define spin_lock_nested(l, s) SL_AT(spin_lock_nested(l, s))
#define spin_unlock(l) SL_AT(spin_unlock(l))

void init_waitqueue_head(wait_queue_head_t *wq);
void wake_up(wait_queue_head_t *wq);
void wake_up_all(wait_queue_head_t *wq);
#define wake_up(wq) SL_AT(wake_up(wq))
#define wake_up_all(wq) SL_AT(wake_up_all(wq))
/* wait_event: the waker's generation is read before the condition, so a
 * wake-up between the test and the sleep is never lost. */
unsigned long sl_wait_generation(wait_queue_head_t *wq);
void sl_wait_for_wake(wait_queue_head_t *wq, unsigned long generation);
void sl_might_sleep(const char *fn);
#define wait_event(wq, condition)                   \
  do {                                              \
    sl_set_site(__FILE__, __LINE__, __func__);      \
    sl_might_sleep("wait_event");                   \
    for (;;) {                                      \
      unsigned long _g = sl_wait_generation(&(wq)); \
      if (condition) break;                         \
      sl_wait_for_wake(&(wq), _g);                  \
    }                                               \
  } while (0)
#define might_sleep() SL_AT(sl_might_sleep("might_sleep"))
void cond_resched(void);

void preempt_disable(void);
void preempt_enable(void);
int smp_processor_id(void);
void migrate_disable(void);
void migrate_enable(void);
unsigned int num_possible_cpus(void);
unsigned int num_online_cpus(void);
#define preempt_disable() SL_AT(preempt_disable())
#define preempt_enable() SL_AT(preempt_enable())
#define raw_smp_processor_id() smp_processor_id()
#define for_each_possible_cpu(cpu) \
  for ((cpu) = 0; (cpu) < (int)num_possible_cpus(); (cpu)++)
#define for_each_online_cpu(cpu) for_each_possible_cpu(cpu)

/* Per-CPU data: copies at a fixed stride, as the kernel's per-CPU offsets. */
#define SL_PERCPU_STRIDE 4096UL
void *sl_alloc_percpu(size_t size, size_t align);
void free_percpu(void *p);
#define alloc_percpu(type) \
  ((__typeof__(type) *)SL_AT(sl_alloc_percpu(sizeof(type), __alignof__(type))))
#define per_cpu_ptr(ptr, cpu) \
  ((__typeof__(ptr))((char *)(ptr) + (unsigned long)(cpu)*SL_PERCPU_STRIDE))
#define this_cpu_ptr(ptr) per_cpu_ptr(ptr, smp_processor_id())
#define raw_cpu_ptr(ptr) this_cpu_ptr(ptr)
#define get_cpu_ptr(ptr) \
  ({                     \
    preempt_disable();   \
    this_cpu_ptr(ptr);   \
  })
#define put_cpu_ptr(ptr) \
  do {                   \
    (void)(ptr);         \
    preempt_enable();    \
  } while (0)

/* local_lock: preemption off, or on PREEMPT_RT a per-CPU sleeping lock;
 * either way a lockdep map of the class of its init site. */
void sl_local_lock_init(local_lock_t *l, const char *name, const char *file,
                        int line);
void sl_local_lock(local_lock_t *percpu_lock);
void sl_local_unlock(local_lock_t *percpu_lock);
#define local_lock_init(l) sl_local_lock_init(l, #l, __FILE__, __LINE__)
#define local_lock(l) SL_AT(sl_local_lock(l))
#define local_unlock(l) SL_AT(sl_local_unlock(l))

static inline int atomic_read(const atomic_t *v) {
  return __atomic_load_n(&v->counter, __ATOMIC_RELAXED);
}
static inline void atomic_set(atomic_t *v, int i) {
  __atomic_store_n(&v->counter, i, __ATOMIC_RELAXED);
}
static inline void atomic_inc(atomic_t *v) {
  __atomic_fetch_add(&v->counter, 1, __ATOMIC_SEQ_CST);
}
static inline void atomic_dec(atomic_t *v) {
  __atomic_fetch_sub(&v->counter, 1, __ATOMIC_SEQ_CST);
}
static inline int atomic_dec_and_test(atomic_t *v) {
  return __atomic_sub_fetch(&v->counter, 1, __ATOMIC_SEQ_CST) == 0;
}

void rcu_barrier(void);

#endif /* SQUASHLAB_LINUX_SCHED_H_ */
