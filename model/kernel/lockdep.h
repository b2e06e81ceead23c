// SPDX-License-Identifier: GPL-2.0-only
// This file implements the lock validator (CONFIG_PROVE_LOCKING): lock
// classes (a lock's class is where it was initialised, as the static
// lock_class_key of mutex_init / spin_lock_init), the dependency graph
// "class A was held while class B was taken", and the report a debug
// kernel prints when an acquisition would close a cycle: "WARNING:
// possible circular locking dependency detected" — at the acquisition that
// takes the second order, whether or not the deadlock happens. The graph
// outlives a run: every run of one campaign (one Scenario, one
// KernelConfig and its copies) adds to the same graph, as one booted
// kernel accumulates it over time.
#ifndef SQUASHLAB_MODEL_KERNEL_LOCKDEP_H_
#define SQUASHLAB_MODEL_KERNEL_LOCKDEP_H_

#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace squashlab {

// The class graph. Thread-safe (the runs of a campaign may share it from
// several threads).
class LockdepGraph {
 public:
  // Records held -> next for every held class. Returns the chain that the
  // new edges close, next -> ... -> held (the first cycle found), or an
  // empty vector. Classes are interned names (mutex_init's): an edge
  // already recorded is found by address, without building strings.
  std::vector<std::string> Acquire(const std::vector<const char*>& held,
                                   const char* next);
  // Records that class `cls` (interned) was taken in hardirq context
  // (`in_irq`) or with hardirqs enabled (outside one); `where` says where,
  // asked only for a class's first usage of that kind. The first time a
  // class has both, returns the pair as lockdep names it ("{IN-HARDIRQ-W}
  // -> {HARDIRQ-ON-W}": the earlier usage first) and sets *earlier to where
  // the earlier one was; else "".
  std::string Usage(const char* cls, bool in_irq,
                    const std::function<std::string()>& where,
                    std::string* earlier);

 private:
  struct ClassUsage {
    std::string in_irq, irqs_on;  // where each usage was first seen
    bool reported = false;
  };
  struct EdgeHash {
    size_t operator()(const std::pair<const char*, const char*>& e) const {
      return std::hash<const void*>()(e.first) * 31 +
             std::hash<const void*>()(e.second);
    }
  };
  bool Path(const std::string& from, const std::string& to,
            std::vector<std::string>* path, std::set<std::string>* seen) const;

  mutable std::mutex mu_;
  std::map<std::string, std::set<std::string>> after_;  // class -> classes
  // The edges of after_ by interned address (a cache of after_'s lookups).
  std::unordered_set<std::pair<const char*, const char*>, EdgeHash> known_;
  std::unordered_map<const char*, ClassUsage> usage_;  // by interned class
};

// The current task takes a lock of class `cls` ("file:line" of its init,
// interned; nullptr: a lock never initialised, not tracked). A blocking
// acquisition is checked against the task's held locks (Task::held_locks,
// the kernel's current->held_locks) before it may block; a trylock only
// joins the held set.
void lockdep_acquire(const char* cls, const char* fn, bool trylock);
// A spinlock of class `cls` was just taken (lockdep's mark_irqflags): in
// hardirq context, or with hardirqs on outside one. A class used both ways
// is "WARNING: inconsistent lock state" at the second usage, whether or
// not the interrupt ever arrives while the lock is held.
void lockdep_irq_usage(const char* cls, const char* fn);
void lockdep_release(const char* cls);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_KERNEL_LOCKDEP_H_
