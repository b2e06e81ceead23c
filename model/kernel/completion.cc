// SPDX-License-Identifier: GPL-2.0-only
// This file implements completions and atomic_t over the run's executor.
#include "model/kernel/completion.h"

#include "model/kernel/atomic.h"
#include "model/kernel/kernel.h"

namespace squashlab {

void init_completion(completion* c) { c->done.store(0); }

void complete(completion* c) {
  Kernel& k = Kernel::Current();
  k.CheckPtr(c, "complete");
  k.Point("complete", 0);
  // kernel/sched/completion.c: done++ and the wake-up under the wait
  // queue's lock, so the waiter (whose stack may hold c) returns only after.
  k.WakeAfter(
      c->wait, [](void* p) { static_cast<completion*>(p)->done.fetch_add(1); },
      c);
}

void complete_all(completion* c) {
  Kernel& k = Kernel::Current();
  k.CheckPtr(c, "complete_all");
  k.Point("complete_all", 0);
  k.WakeAfter(
      c->wait,
      [](void* p) { static_cast<completion*>(p)->done.store(1u << 30); }, c);
}

void wait_for_completion(completion* c) {
  Kernel& k = Kernel::Current();
  k.CheckPtr(c, "wait_for_completion");
  k.MightSleep("wait_for_completion");
  k.Point("wait_for_completion", 0);
  // The check goes through Sleep, which on real threads takes the wait
  // queue's lock as do_wait_for_common does: the caller may free c (on its
  // stack) as soon as this returns.
  for (;;) {
    k.Sleep(
        c->wait, [c] { return c->done.load() > 0; }, "wait_for_completion", 0);
    unsigned d = c->done.load();
    if (d > 0 && c->done.compare_exchange_strong(d, d - 1)) return;
  }
}

int atomic_read(const atomic_t* v) {
  model_point("atomic_read");
  return v->counter.load();
}
void atomic_set(atomic_t* v, int i) {
  model_point("atomic_set");
  v->counter.store(i);
}
void atomic_inc(atomic_t* v) { atomic_add(1, v); }
void atomic_dec(atomic_t* v) { atomic_sub(1, v); }
int atomic_inc_return(atomic_t* v) {
  model_point("atomic_inc_return");
  return v->counter.fetch_add(1) + 1;
}
int atomic_dec_return(atomic_t* v) {
  model_point("atomic_dec_return");
  return v->counter.fetch_sub(1) - 1;
}
int atomic_dec_and_test(atomic_t* v) { return atomic_dec_return(v) == 0; }
void atomic_add(int i, atomic_t* v) {
  model_point("atomic_add");
  v->counter.fetch_add(i);
}
void atomic_sub(int i, atomic_t* v) {
  model_point("atomic_sub");
  v->counter.fetch_sub(i);
}

}  // namespace squashlab
