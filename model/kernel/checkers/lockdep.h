// SPDX-License-Identifier: GPL-2.0-only
// This file implements the lock validator (CONFIG_PROVE_LOCKING,
// kernel/locking/lockdep.c): lock classes (a lock's class is where it was
// initialised, as the static lock_class_key of mutex_init, spin_lock_init,
// local_lock_init, DEFINE_MUTEX; a nesting annotation's subclass is a
// class of its own), the dependency graph "class A was held while class B
// was taken", each class's hardirq usage, and the reports a debug kernel
// prints, at the acquisition that shows the problem, whether or not the
// deadlock happens:
//  - "WARNING: possible circular locking dependency detected"
//    (check_noncircular): the new order closes a cycle;
//  - "WARNING: possible recursive locking detected" (check_deadlock): a
//    class taken while the task holds it, with no nesting annotation;
//  - "WARNING: inconsistent lock state" (mark_lock / valid_state): a class
//    taken in hardirq context and with hardirqs enabled;
//  - "WARNING: HARDIRQ-safe -> HARDIRQ-unsafe lock order detected"
//    (check_irq_usage): a new order from a class taken in hardirq context
//    to one taken with hardirqs on;
//  - "WARNING: possible irq lock inversion dependency detected"
//    (check_usage_forwards / backwards): a class gains a usage that an
//    order already recorded contradicts.
// A class used only in hardirq context, or only with hardirqs off, is
// never reported. The graph outlives a run: every run of one campaign (one
// Scenario, one KernelConfig and its copies) adds to the same graph, as
// one booted kernel accumulates it over time.
#ifndef SQUASHLAB_MODEL_KERNEL_CHECKERS_LOCKDEP_H_
#define SQUASHLAB_MODEL_KERNEL_CHECKERS_LOCKDEP_H_

#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace squashlab {

struct Task;

// What a class's locks are: lockdep prints the wait type with the name
// (LD_WAIT_SLEEP for a mutex, LD_WAIT_CONFIG for spinlock_t and
// local_lock_t).
enum class LockKind { kMutex, kSpinlock, kLocalLock };

// The interned class of the locks initialised at `file`:`line`, named
// `name` in reports ("&msblk->meta_index_mutex"; nullptr: the site). The
// same site is the same class, whatever the lock instance.
const char* lockdep_class(const char* file, int line, const char* name,
                          LockKind kind);
// The class of a nesting annotation (mutex_lock_nested, spin_lock_nested):
// `subclass` 0 is `cls` itself, another one a class of its own, named
// "name/N".
const char* lockdep_subclass(const char* cls, unsigned subclass);
std::string lockdep_class_name(const char* cls);

// What the graph found wrong with an acquisition or a usage.
struct LockdepFinding {
  enum Kind { kNone, kCircular, kIrqOrder, kUsage, kInversion } kind = kNone;
  // kCircular: next -> ... -> held, with where each dependency was first
  // recorded (chain_at[i]: cycle[i] taken while holding cycle[i-1]).
  std::vector<std::string> cycle, chain_at;
  // kIrqOrder, kInversion: the hardirq-safe and -unsafe classes and where
  // each became so.
  std::string safe, unsafe, safe_at, unsafe_at;
  // kUsage: the earlier usage and where it was registered; kInversion:
  // whether the changed class is the safe one (it took an unsafe one).
  bool earlier_in_irq = false, forwards = false;
  std::string earlier_at;
  explicit operator bool() const { return kind != kNone; }
};

// The class graph. Thread-safe (the runs of a campaign may share it from
// several threads).
class LockdepGraph {
 public:
  // Records held -> next for every held class. Returns the first problem
  // a new edge shows: a cycle it closes, or an order from a hardirq-safe
  // to a hardirq-unsafe class. Classes are interned (lockdep_class): an
  // edge already recorded is found by address, without building strings.
  // `where` (asked only for a new edge) says where the order was taken.
  LockdepFinding Acquire(const std::vector<const char*>& held, const char* next,
                         const std::function<std::string()>& where);
  size_t Edges() const;
  // Records that class `cls` was taken in hardirq context (`in_irq`) or
  // with hardirqs enabled outside one; `where` says where, asked only for
  // a class's first usage of that kind. Returns the problem the new usage
  // shows, once a class: both usages (kUsage), or an order already
  // recorded that leads from a hardirq-safe to a hardirq-unsafe class
  // (kInversion).
  LockdepFinding Usage(const char* cls, bool in_irq,
                       const std::function<std::string()>& where);
  // lockdep's usage characters for a class ("{+.+.}", "{-...}").
  std::string UsageChars(const char* cls) const;

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
  using Adjacency = std::map<std::string, std::set<std::string>>;
  static bool Path(const Adjacency& adj, const std::string& from,
                   const std::string& to, std::vector<std::string>* path,
                   std::set<std::string>* seen);
  // The first class reachable from `from` through `adj` (itself included)
  // with the usage `in_irq` (or irqs on), or "".
  std::string Reach(const Adjacency& adj, const std::string& from,
                    bool in_irq) const;
  const ClassUsage* UsageOf(const std::string& cls) const;

  mutable std::mutex mu_;
  Adjacency after_;   // class -> classes taken while it was held
  Adjacency before_;  // the reverse edges
  std::map<std::pair<std::string, std::string>, std::string> edge_at_;
  // The edges of after_ by interned address (a cache of after_'s lookups).
  std::unordered_set<std::pair<const char*, const char*>, EdgeHash> known_;
  std::map<std::string, ClassUsage> usage_;  // by class
};

// The reports, as kernel/locking/lockdep.c prints them, of a finding at
// task `t`'s acquisition of `cls`/`next` at `at` (where the code under test
// took it); the class names and usages come from `g`, the task's held
// locks from Task::held_locks and held_at. The kernel API layer's lock
// hooks (model/kernel/lock_hooks.h) decide when to print one.
// print_circular_bug: a kCircular finding.
std::string LockdepCircularReport(const LockdepGraph& g, const Task* t,
                                  const std::string& next,
                                  const std::string& at,
                                  const LockdepFinding& f);
// print_deadlock_bug: `cls` taken again while held.
std::string LockdepRecursiveReport(const LockdepGraph& g, const Task* t,
                                   const char* cls, const std::string& at);
// print_bad_irq_dependency: a kIrqOrder finding.
std::string LockdepIrqOrderReport(const LockdepGraph& g, const Task* t,
                                  const std::string& next,
                                  const std::string& at,
                                  const LockdepFinding& f);
// print_irq_inversion_bug: a kInversion finding of `cls`'s new usage.
std::string LockdepInversionReport(const LockdepGraph& g, const Task* t,
                                   const char* cls, const std::string& at,
                                   const LockdepFinding& f);
// print_usage_bug: a kUsage finding of `cls` taken `in_irq` (or not).
std::string LockdepUsageReport(const LockdepGraph& g, const Task* t,
                               const char* cls, const std::string& at,
                               bool in_irq, const LockdepFinding& f);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_KERNEL_CHECKERS_LOCKDEP_H_
