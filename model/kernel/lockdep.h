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

#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace squashlab {

// The class graph. Thread-safe (the runs of a campaign may share it from
// several threads).
class LockdepGraph {
 public:
  // Records held -> next for every held class. Returns the chain that the
  // new edges close, next -> ... -> held (the first cycle found), or an
  // empty vector.
  std::vector<std::string> Acquire(const std::vector<std::string>& held,
                                   const std::string& next);
  size_t Edges() const;

 private:
  bool Path(const std::string& from, const std::string& to,
            std::vector<std::string>* path, std::set<std::string>* seen) const;

  mutable std::mutex mu_;
  std::map<std::string, std::set<std::string>> after_;  // class -> classes
};

// The current task takes a lock of class `cls` ("file:line" of its init;
// nullptr: a lock never initialised, not tracked). A blocking acquisition
// is checked against the task's held locks before it may block; a trylock
// only joins the held set.
void lockdep_acquire(const char* cls, const char* fn, bool trylock);
void lockdep_release(const char* cls);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_KERNEL_LOCKDEP_H_
