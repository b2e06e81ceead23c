// SPDX-License-Identifier: GPL-2.0-only
// This file implements the planted-bug programs of the scheduler tests and
// the benchmark, written against the kernel API: a lost update, an order
// violation, a depth-3 atomicity violation and an ABBA deadlock, each with
// a correct twin; and a counting program whose interleavings are known.
#ifndef SQUASHLAB_MODEL_KERNEL_TESTING_PLANTED_H_
#define SQUASHLAB_MODEL_KERNEL_TESTING_PLANTED_H_

#include <string>

#include "model/kernel/atomic.h"
#include "model/kernel/mutex.h"
#include "model/kernel/page.h"
#include "model/kernel/scenario.h"

namespace squashlab::testing {

inline TaskSpec Proc(std::string name, std::function<void()> body) {
  return TaskSpec{std::move(name), TaskContext::kProcess, -1, 0, 0,
                  std::move(body)};
}

inline void Pad(int n) {
  for (int i = 0; i < n; i++) model_point("pad");
}

// Two tasks increment a counter: read, then write. Needs 1 preemption.
inline Scenario LostUpdate(bool correct, int pad = 2) {
  return Scenario{
      correct ? "lost_update_fixed" : "lost_update", {}, [=](Kernel& k) {
        struct State {
          int counter = 0;
          mutex m;
        };
        State* st = k.New<State>();
        mutex_init(&st->m);
        for (int i = 0; i < 2; i++) {
          k.Spawn(Proc("inc", [=] {
            Pad(pad);
            if (correct) mutex_lock(&st->m);
            int v = READ_ONCE(st->counter);
            WRITE_ONCE(st->counter, v + 1);
            if (correct) mutex_unlock(&st->m);
            Pad(pad);
          }));
        }
        k.AtQuiescence([st] { BUG_ON(st->counter != 2); });
      }};
}

// "user" locks the page "init" publishes, assuming it already has.
// Needs 0 preemptions (user simply runs first).
inline Scenario OrderViolation(bool correct, int pad = 2) {
  return Scenario{correct ? "order_violation_fixed" : "order_violation",
                  {},
                  [=](Kernel& k) {
                    struct State {
                      page* published = nullptr;
                      wait_queue_head_t wq;
                    };
                    State* st = k.New<State>();
                    k.Spawn(Proc("init", [=] {
                      Pad(pad);
                      page* p = alloc_page(GFP_KERNEL);
                      WRITE_ONCE(st->published, p);
                      if (correct) wake_up(&st->wq);
                    }));
                    k.Spawn(Proc("user", [=] {
                      // A wait condition must not contain scheduling points:
                      // plain atomic load.
                      if (correct)
                        wait_event(st->wq, [st] {
                          return std::atomic_ref<page*>(st->published).load() !=
                                 nullptr;
                        });
                      page* p = READ_ONCE(st->published);
                      lock_page(p);
                      unlock_page(p);
                      Pad(pad);
                    }));
                    k.AtQuiescence([st] { put_page(st->published); });
                  }};
}

// "writer" sets x=1 then x=2; "reader" must never see 1 then 2 (it assumes
// its two reads are atomic). Needs a1 < b1 < a2 < b2: depth 3, 2 preemptions.
inline Scenario AtomicityDepth3(bool correct, int pad = 2) {
  return Scenario{
      correct ? "atomicity3_fixed" : "atomicity3", {}, [=](Kernel& k) {
        struct State {
          int x = 0;
          mutex m;
        };
        State* st = k.New<State>();
        mutex_init(&st->m);
        k.Spawn(Proc("writer", [=] {
          Pad(pad);
          if (correct) mutex_lock(&st->m);
          WRITE_ONCE(st->x, 1);
          Pad(pad);
          WRITE_ONCE(st->x, 2);
          if (correct) mutex_unlock(&st->m);
        }));
        k.Spawn(Proc("reader", [=] {
          Pad(pad);
          if (correct) mutex_lock(&st->m);
          int r1 = READ_ONCE(st->x);
          Pad(pad);
          int r2 = READ_ONCE(st->x);
          if (correct) mutex_unlock(&st->m);
          BUG_ON(r1 == 1 && r2 == 2);
        }));
      }};
}

// ABBA: "a" takes m1 then m2, "b" takes m2 then m1. Needs 1 preemption.
// A production kernel: the search must find the deadlock itself (a debug
// kernel's lockdep reports the second order on any schedule).
inline Scenario Deadlock(bool correct, int pad = 2) {
  KernelConfig prod;
  prod.debug = false;
  return Scenario{correct ? "deadlock_fixed" : "deadlock", prod,
                  [=](Kernel& k) {
                    struct State {
                      mutex m1, m2;
                    };
                    State* st = k.New<State>();
                    mutex_init(&st->m1);
                    mutex_init(&st->m2);
                    auto take = [=](mutex* first, mutex* second) {
                      Pad(pad);
                      mutex_lock(first);
                      Pad(1);
                      mutex_lock(second);
                      mutex_unlock(second);
                      mutex_unlock(first);
                    };
                    k.Spawn(Proc("a", [=] { take(&st->m1, &st->m2); }));
                    k.Spawn(Proc("b", [=] {
                      correct ? take(&st->m1, &st->m2) : take(&st->m2, &st->m1);
                    }));
                  }};
}

// `tasks` tasks of `points` scheduling points each: with unbounded
// preemptions there are (T(P+1))! / ((P+1)!)^T schedules.
inline Scenario Interleavings(int tasks, int points) {
  return Scenario{"interleavings", {}, [=](Kernel& k) {
                    for (int t = 0; t < tasks; t++)
                      k.Spawn(Proc("t", [=] { Pad(points); }));
                  }};
}

}  // namespace squashlab::testing

#endif  // SQUASHLAB_MODEL_KERNEL_TESTING_PLANTED_H_
