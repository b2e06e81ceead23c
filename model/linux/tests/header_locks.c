/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * This file implements the C side of header_locks_test: locks defined and
 * initialised through the header layer's macros, as kernel code does
 * (DEFINE_MUTEX, DEFINE_SPINLOCK, mutex_init, local_lock_init), taken in the
 * orders the test asks for.
 */
#include <linux/local_lock.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/spinlock.h>

static DEFINE_MUTEX(lab_static_mutex);
static DEFINE_SPINLOCK(lab_static_lock);

struct lab_locks {
  spinlock_t inner;
  local_lock_t llock;
};

static struct lab_locks *lab_percpu;
static struct mutex lab_dynamic[2];

void lab_locks_init(void) {
  int cpu, i;

  for (i = 0; i < 2; i++) mutex_init(&lab_dynamic[i]);
  lab_percpu = alloc_percpu(struct lab_locks);
  for_each_possible_cpu(cpu) {
    struct lab_locks *l = per_cpu_ptr(lab_percpu, cpu);

    spin_lock_init(&l->inner);
    local_lock_init(&l->llock);
  }
}

/* The static mutex, then the dynamic one. */
void lab_static_then_dynamic(void) {
  mutex_lock(&lab_static_mutex);
  mutex_lock(&lab_dynamic[0]);
  mutex_unlock(&lab_dynamic[0]);
  mutex_unlock(&lab_static_mutex);
}

void lab_dynamic_then_static(void) {
  mutex_lock(&lab_dynamic[0]);
  mutex_lock(&lab_static_mutex);
  mutex_unlock(&lab_static_mutex);
  mutex_unlock(&lab_dynamic[0]);
}

/* Both dynamic mutexes (one init site: one class), annotated or not. */
void lab_both_dynamic(int nested) {
  mutex_lock(&lab_dynamic[0]);
  if (nested)
    mutex_lock_nested(&lab_dynamic[1], 1);
  else
    mutex_lock(&lab_dynamic[1]);
  mutex_unlock(&lab_dynamic[1]);
  mutex_unlock(&lab_dynamic[0]);
}

void lab_static_spinlock(void) {
  spin_lock(&lab_static_lock);
  spin_unlock(&lab_static_lock);
}

/* The local lock, then CPU 0's spinlock (one class on every CPU); or the
 * other way round. */
void lab_local_then_inner(void) {
  struct lab_locks *l = per_cpu_ptr(lab_percpu, 0);

  local_lock(&lab_percpu->llock);
  spin_lock(&l->inner);
  spin_unlock(&l->inner);
  local_unlock(&lab_percpu->llock);
}

void lab_inner_then_local(void) {
  struct lab_locks *l = per_cpu_ptr(lab_percpu, 0);

  spin_lock(&l->inner);
  local_lock(&lab_percpu->llock);
  local_unlock(&lab_percpu->llock);
  spin_unlock(&l->inner);
}

void lab_locks_exit(void) { free_percpu(lab_percpu); }
