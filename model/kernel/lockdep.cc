// SPDX-License-Identifier: GPL-2.0-only
// This file implements the lock validator's class graph and its circular
// dependency report.
#include "model/kernel/lockdep.h"

#include <algorithm>
#include <cstring>

#include "model/kernel/kernel.h"
#include "model/kernel/kernel_internal.h"

namespace squashlab {

bool LockdepGraph::Path(const std::string& from, const std::string& to,
                        std::vector<std::string>* path,
                        std::set<std::string>* seen) const {
  path->push_back(from);
  if (from == to) return true;
  if (seen->insert(from).second) {
    auto it = after_.find(from);
    if (it != after_.end())
      for (const std::string& n : it->second)
        if (Path(n, to, path, seen)) return true;
  }
  path->pop_back();
  return false;
}

std::vector<std::string> LockdepGraph::Acquire(
    const std::vector<const char*>& held, const char* next) {
  std::vector<std::string> cycle;
  if (held.empty()) return cycle;
  std::lock_guard<std::mutex> l(mu_);
  for (const char* h : held) {
    if (h == next || known_.count({h, next})) continue;
    known_.insert({h, next});
    if (std::strcmp(h, next) == 0) continue;  // recursive locking: not modelled
    std::set<std::string>& after = after_[h];
    if (after.count(next)) continue;
    std::vector<std::string> path;
    std::set<std::string> seen;
    if (cycle.empty() && Path(next, h, &path, &seen)) cycle = path;
    after.insert(next);
  }
  return cycle;
}

std::string LockdepGraph::Usage(const char* cls, bool in_irq,
                                const std::function<std::string()>& where,
                                std::string* earlier) {
  std::lock_guard<std::mutex> l(mu_);
  ClassUsage& u = usage_[cls];
  std::string& mine = in_irq ? u.in_irq : u.irqs_on;
  const std::string& other = in_irq ? u.irqs_on : u.in_irq;
  if (mine.empty()) mine = where();
  if (other.empty() || u.reported) return "";
  u.reported = true;
  *earlier = other;
  return in_irq ? "{HARDIRQ-ON-W} -> {IN-HARDIRQ-W}"
                : "{IN-HARDIRQ-W} -> {HARDIRQ-ON-W}";
}

namespace {

std::string CircularReport(const Task* t, const std::string& next,
                           const std::vector<std::string>& cycle,
                           const char* fn) {
  std::string who = t ? t->Comm() : std::string("swapper");
  std::string s =
      "======================================================\n"
      "WARNING: possible circular locking dependency detected\n"
      "------------------------------------------------------\n" +
      who + " is trying to acquire lock:\n (" + next + "), at: " + fn +
      "\n\nbut task is already holding lock:\n (" + cycle.back() +
      ")\n\nwhich lock already depends on the new lock.\n\n"
      "the existing dependency chain (in reverse order) is:\n";
  for (size_t i = cycle.size(); i-- > 0;)
    s += "-> #" + std::to_string(i) + " (" + cycle[i] + ")\n";
  s += "\n Possible unsafe locking scenario:\n       CPU0        CPU1\n"
       "       lock(" +
       cycle.back() + ");\n                   lock(" + next +
       ");\n                   lock(" + cycle.back() + ");\n       lock(" +
       next + ");\n\n *** DEADLOCK ***";
  return s;
}

}  // namespace

void lockdep_acquire(const char* cls, const char* fn, bool trylock) {
  Kernel& k = Kernel::Current();
  Task* t = k.current_task();
  if (cls == nullptr || t == nullptr || !k.config().debug) return;
  // Only the task itself touches its held locks.
  std::vector<std::string> cycle;
  if (!trylock && !t->held_locks.empty())  // the first lock orders nothing
    cycle = KernelInternal::Lockdep(k).Acquire(t->held_locks, cls);
  t->held_locks.push_back(cls);
  if (cycle.empty() || !KernelInternal::LockdepOn(k)) return;
  KernelInternal::LockdepOff(k);  // debug_locks_off(): one report a run
  k.Warn(Check::kLockdepCircular,
         "WARNING: possible circular locking dependency detected",
         CircularReport(t, cls, cycle, fn));
}

void lockdep_irq_usage(const char* cls, const char* fn) {
  Kernel& k = Kernel::Current();
  Task* t = k.current_task();
  if (cls == nullptr || t == nullptr || !k.config().debug) return;
  const bool in_irq = t->in_interrupt();
  if (!in_irq && t->irqs_disabled > 0) return;  // irqs off: neither usage
  std::string earlier;
  const std::string pair = KernelInternal::Lockdep(k).Usage(
      cls, in_irq, [fn, t] { return std::string(fn) + " by " + t->Comm(); },
      &earlier);
  if (pair.empty() || !KernelInternal::LockdepOn(k)) return;
  KernelInternal::LockdepOff(k);  // debug_locks_off(): one report a run
  k.Warn(Check::kLockdepInconsistent, "WARNING: inconsistent lock state",
         "================================\n"
         "WARNING: inconsistent lock state\n"
         "--------------------------------\n"
         "inconsistent " +
             pair + " usage.\n" + t->Comm() + " takes (" + cls + ") " +
             (in_irq ? "in hardirq context" : "with hardirqs enabled") +
             ", at: " + fn + "\nit was taken " +
             (in_irq ? "with hardirqs enabled" : "in hardirq context") +
             " before, at: " + earlier +
             "\n\n Possible unsafe locking scenario:\n       CPU0\n       "
             "----\n  lock(" +
             cls + ");\n  <Interrupt>\n    lock(" + cls +
             ");\n\n *** DEADLOCK ***");
}

void lockdep_release(const char* cls) {
  Kernel& k = Kernel::Current();
  Task* t = k.current_task();
  if (cls == nullptr || t == nullptr || !k.config().debug) return;
  std::vector<const char*>& held = t->held_locks;
  auto it = std::find_if(held.rbegin(), held.rend(), [cls](const char* h) {
    return h == cls || std::strcmp(h, cls) == 0;
  });
  if (it != held.rend()) held.erase(std::next(it).base());
}

}  // namespace squashlab
