// SPDX-License-Identifier: GPL-2.0-only
// This file implements the lock validator's classes, its class graph and
// its reports, in the layout of kernel/locking/lockdep.c's print_*_bug.
#include "model/kernel/checkers/lockdep.h"

#include <algorithm>
#include <cstring>
#include <deque>

#include "model/sched/task.h"

namespace squashlab {
namespace {

struct ClassInfo {
  std::string name;
  LockKind kind = LockKind::kMutex;
};

// Interned class keys and what each is called: stable for the process,
// shared by runs.
struct Registry {
  std::mutex mu;
  std::map<std::string, ClassInfo> classes;  // key -> info
  std::unordered_map<const char*, const ClassInfo*> by_key;
  const char* Intern(const std::string& key, const std::string& name,
                     LockKind kind) {
    std::lock_guard<std::mutex> l(mu);
    auto [it, fresh] = classes.try_emplace(key, ClassInfo{name, kind});
    by_key[it->first.c_str()] = &it->second;
    return it->first.c_str();
  }
  const ClassInfo* Find(const char* key) {
    std::lock_guard<std::mutex> l(mu);
    auto it = by_key.find(key);
    if (it != by_key.end()) return it->second;
    auto c = classes.find(key);
    return c == classes.end() ? nullptr : &c->second;
  }
};

Registry& Classes() {
  static auto* r = new Registry();
  return *r;
}

}  // namespace

const char* lockdep_class(const char* file, int line, const char* name,
                          LockKind kind) {
  const std::string key = std::string(file) + ":" + std::to_string(line);
  return Classes().Intern(key, name != nullptr ? name : key, kind);
}

const char* lockdep_subclass(const char* cls, unsigned subclass) {
  if (cls == nullptr || subclass == 0) return cls;
  const ClassInfo* info = Classes().Find(cls);
  const std::string n = "/" + std::to_string(subclass);
  return Classes().Intern(cls + n, (info ? info->name : cls) + n,
                          info ? info->kind : LockKind::kMutex);
}

std::string lockdep_class_name(const char* cls) {
  const ClassInfo* info = Classes().Find(cls);
  return info != nullptr ? info->name : std::string(cls);
}

namespace {
// The wait type lockdep prints after the usage ("-{4:4}": LD_WAIT_SLEEP;
// "-{3:3}": LD_WAIT_CONFIG, spinlock_t and local_lock_t).
const char* WaitType(const char* cls) {
  const ClassInfo* info = Classes().Find(cls);
  return info != nullptr && info->kind == LockKind::kMutex ? "-{4:4}"
                                                           : "-{3:3}";
}
}  // namespace

bool LockdepGraph::Path(const Adjacency& adj, const std::string& from,
                        const std::string& to, std::vector<std::string>* path,
                        std::set<std::string>* seen) {
  path->push_back(from);
  if (from == to) return true;
  if (seen->insert(from).second) {
    auto it = adj.find(from);
    if (it != adj.end())
      for (const std::string& n : it->second)
        if (Path(adj, n, to, path, seen)) return true;
  }
  path->pop_back();
  return false;
}

const LockdepGraph::ClassUsage* LockdepGraph::UsageOf(
    const std::string& cls) const {
  auto it = usage_.find(cls);
  return it == usage_.end() ? nullptr : &it->second;
}

std::string LockdepGraph::Reach(const Adjacency& adj, const std::string& from,
                                bool in_irq) const {
  std::set<std::string> seen{from};
  std::deque<std::string> todo{from};  // breadth first: the nearest class
  while (!todo.empty()) {
    const std::string c = todo.front();
    todo.pop_front();
    const ClassUsage* u = UsageOf(c);
    if (u != nullptr && !(in_irq ? u->in_irq : u->irqs_on).empty()) return c;
    auto it = adj.find(c);
    if (it == adj.end()) continue;
    for (const std::string& n : it->second)
      if (seen.insert(n).second) todo.push_back(n);
  }
  return "";
}

LockdepFinding LockdepGraph::Acquire(
    const std::vector<const char*>& held, const char* next,
    const std::function<std::string()>& where) {
  LockdepFinding f;
  if (held.empty()) return f;
  std::lock_guard<std::mutex> l(mu_);
  for (const char* h : held) {
    if (h == next || known_.count({h, next})) continue;
    known_.insert({h, next});
    if (std::strcmp(h, next) == 0) continue;  // check_deadlock's, not ours
    std::set<std::string>& after = after_[h];
    if (after.count(next)) continue;
    // check_noncircular: a path next -> ... -> h closes a cycle.
    std::vector<std::string> path;
    std::set<std::string> seen;
    if (!f && Path(after_, next, h, &path, &seen)) {
      f.kind = LockdepFinding::kCircular;
      f.cycle = path;
      f.chain_at.push_back(where());
      for (size_t i = 1; i < path.size(); i++)
        f.chain_at.push_back(edge_at_[{path[i - 1], path[i]}]);
    }
    after.insert(next);
    before_[next].insert(h);
    edge_at_[{h, next}] = where();
    // check_irq_usage: a hardirq-safe class at or before h, now ordered
    // before a hardirq-unsafe class at or after next.
    if (f) continue;
    const std::string safe = Reach(before_, h, true);
    if (safe.empty()) continue;
    const std::string unsafe = Reach(after_, next, false);
    if (unsafe.empty()) continue;
    f.kind = LockdepFinding::kIrqOrder;
    f.safe = safe;
    f.unsafe = unsafe;
    f.safe_at = usage_[safe].in_irq;
    f.unsafe_at = usage_[unsafe].irqs_on;
    f.cycle = {h, next};
  }
  return f;
}

LockdepFinding LockdepGraph::Usage(const char* cls, bool in_irq,
                                   const std::function<std::string()>& where) {
  LockdepFinding f;
  std::lock_guard<std::mutex> l(mu_);
  ClassUsage& u = usage_[cls];
  std::string& mine = in_irq ? u.in_irq : u.irqs_on;
  if (!mine.empty()) return f;  // not a new usage: nothing to check
  mine = where();
  if (u.reported) return f;
  const std::string& other = in_irq ? u.irqs_on : u.in_irq;
  if (!other.empty()) {  // valid_state
    u.reported = true;
    f.kind = LockdepFinding::kUsage;
    f.earlier_in_irq = !in_irq;
    f.earlier_at = other;
    return f;
  }
  // check_usage_forwards (a new safe class: an unsafe one after it) or
  // check_usage_backwards (a new unsafe class: a safe one before it).
  const std::string them =
      in_irq ? Reach(after_, cls, false) : Reach(before_, cls, true);
  if (them.empty() || them == cls) return f;
  u.reported = true;
  f.kind = LockdepFinding::kInversion;
  f.forwards = in_irq;
  f.safe = in_irq ? std::string(cls) : them;
  f.unsafe = in_irq ? them : std::string(cls);
  f.safe_at = usage_[f.safe].in_irq;
  f.unsafe_at = usage_[f.unsafe].irqs_on;
  return f;
}

std::string LockdepGraph::UsageChars(const char* cls) const {
  std::lock_guard<std::mutex> l(mu_);
  const ClassUsage* u = UsageOf(cls);
  const bool in = u != nullptr && !u->in_irq.empty();
  const bool on = u != nullptr && !u->irqs_on.empty();
  // get_usage_char: '+' enabled only, '-' used in the irq only, '?' both;
  // softirqs are enabled wherever hardirqs are (the model has no softirq).
  const char hard = in && on ? '?' : in ? '-' : on ? '+' : '.';
  return std::string("{") + hard + '.' + (on ? '+' : '.') + ".}";
}

namespace {

std::string Comm(const Task* t) { return t ? t->Comm() : "swapper"; }

// print_lock_name: "(&msblk->meta_index_mutex){+.+.}-{4:4}".
std::string LockName(const LockdepGraph& g, const std::string& cls) {
  return "(" + lockdep_class_name(cls.c_str()) + ")" +
         g.UsageChars(cls.c_str()) + WaitType(cls.c_str());
}

// print_lock: the class and where the lock was taken.
std::string LockLine(const LockdepGraph& g, const std::string& cls,
                     const std::string& at) {
  return " " + LockName(g, cls) + ", at: " + at + "\n";
}

std::string Name(const std::string& cls) {
  return lockdep_class_name(cls.c_str());
}

// lockdep_print_held_locks.
std::string HeldLocks(const LockdepGraph& g, const Task* t) {
  const size_t n = t ? t->held_locks.size() : 0;
  if (n == 0) return "no locks held by " + Comm(t) + ".\n";
  std::string s = std::to_string(n) + (n == 1 ? " lock" : " locks") +
                  " held by " + Comm(t) + ":\n";
  for (size_t i = 0; i < n; i++)
    s += " #" + std::to_string(i) + ":" +
         LockLine(g, t->held_locks[i],
                  i < t->held_at.size() ? t->held_at[i] : "?");
  return s;
}

std::string HeldAt(const Task* t, const char* cls) {
  for (size_t i = t->held_locks.size(); i-- > 0;)
    if (t->held_locks[i] == cls || std::strcmp(t->held_locks[i], cls) == 0)
      return i < t->held_at.size() ? t->held_at[i] : "?";
  return "?";
}

std::string Indent(const std::string& text) {
  std::string s = "       ";
  for (char c : text) {
    s += c;
    if (c == '\n') s += "       ";
  }
  return s + "\n";
}

// print_irq_lock_scenario.
std::string IrqScenario(const std::string& safe, const std::string& unsafe,
                        const std::string& middle) {
  std::string s;
  if (middle != unsafe)
    s += "Chain exists of:\n  " + Name(safe) + " --> " + Name(middle) +
         " --> " + Name(unsafe) + "\n\n";
  return s +
         " Possible interrupt unsafe locking scenario:\n\n"
         "       CPU0                    CPU1\n"
         "       ----                    ----\n"
         "  lock(" +
         Name(unsafe) +
         ");\n                               local_irq_disable();\n"
         "                               lock(" +
         Name(safe) + ");\n                               lock(" +
         Name(middle) + ");\n  <Interrupt>\n    lock(" + Name(safe) +
         ");\n\n *** DEADLOCK ***\n\n";
}

}  // namespace

// print_circular_bug_header, the chain and print_circular_lock_scenario.
std::string LockdepCircularReport(const LockdepGraph& g, const Task* t,
                                  const std::string& next,
                                  const std::string& next_at,
                                  const LockdepFinding& f) {
  const std::string& held = f.cycle.back();
  std::string s =
      "======================================================\n"
      "WARNING: possible circular locking dependency detected\n"
      "------------------------------------------------------\n" +
      Comm(t) + " is trying to acquire lock:\n" + LockLine(g, next, next_at) +
      "\nbut task is already holding lock:\n" +
      LockLine(g, held, HeldAt(t, held.c_str())) +
      "\nwhich lock already depends on the new lock.\n\n"
      "\nthe existing dependency chain (in reverse order) is:\n";
  for (size_t i = f.cycle.size(); i-- > 0;)
    s += "\n-> #" + std::to_string(i) + " " + LockName(g, f.cycle[i]) + ":\n" +
         Indent(f.chain_at[i]);
  s += "\nother info that might help us debug this:\n\n";
  // The class the chain reaches the held one from (next itself when the
  // two are ordered directly).
  const std::string& parent = f.cycle[f.cycle.size() - 2];
  if (parent != next)
    s += "Chain exists of:\n  " + Name(next) + " --> " + Name(parent) +
         " --> " + Name(held) + "\n\n";
  s += " Possible unsafe locking scenario:\n\n"
       "       CPU0                    CPU1\n"
       "       ----                    ----\n"
       "  lock(" +
       Name(held) + ");\n                               lock(" + Name(parent) +
       ");\n                               lock(" + Name(held) + ");\n  lock(" +
       Name(next) + ");\n\n *** DEADLOCK ***\n\n" + HeldLocks(g, t);
  return s;
}

// print_deadlock_bug and print_deadlock_scenario.
std::string LockdepRecursiveReport(const LockdepGraph& g, const Task* t,
                                   const char* cls, const std::string& at) {
  return "============================================\n"
         "WARNING: possible recursive locking detected\n"
         "--------------------------------------------\n" +
         Comm(t) + " is trying to acquire lock:\n" + LockLine(g, cls, at) +
         "\nbut task is already holding lock:\n" +
         LockLine(g, cls, HeldAt(t, cls)) +
         "\nother info that might help us debug this:\n"
         " Possible unsafe locking scenario:\n\n"
         "       CPU0\n       ----\n  lock(" +
         Name(cls) + ");\n  lock(" + Name(cls) +
         ");\n\n *** DEADLOCK ***\n\n"
         " May be due to missing lock nesting notation\n\n" +
         HeldLocks(g, t);
}

// print_bad_irq_dependency.
std::string LockdepIrqOrderReport(const LockdepGraph& g, const Task* t,
                                  const std::string& next,
                                  const std::string& next_at,
                                  const LockdepFinding& f) {
  const std::string& prev = f.cycle[0];
  const std::string middle = prev == f.safe ? next : prev;
  return "=====================================================\n"
         "WARNING: HARDIRQ-safe -> HARDIRQ-unsafe lock order detected\n"
         "-----------------------------------------------------\n" +
         Comm(t) + " is trying to acquire:\n" + LockLine(g, next, next_at) +
         "\nand this task is already holding:\n" +
         LockLine(g, prev, HeldAt(t, prev.c_str())) +
         "which would create a new lock dependency:\n " + LockName(g, prev) +
         " -> " + LockName(g, next) +
         "\n\nbut this new dependency connects a HARDIRQ-irq-safe lock:\n " +
         LockName(g, f.safe) + "\n\n... which became HARDIRQ-irq-safe at:\n" +
         Indent(f.safe_at) + "\nto a HARDIRQ-irq-unsafe lock:\n " +
         LockName(g, f.unsafe) +
         "\n\n... which became HARDIRQ-irq-unsafe at:\n...\n" +
         Indent(f.unsafe_at) +
         "\nother info that might help us debug this:\n\n" +
         IrqScenario(f.safe, f.unsafe, middle) + HeldLocks(g, t);
}

// print_irq_inversion_bug.
std::string LockdepInversionReport(const LockdepGraph& g, const Task* t,
                                   const char* cls, const std::string& at,
                                   const LockdepFinding& f) {
  const std::string other = f.forwards ? f.unsafe : f.safe;
  return "========================================================\n"
         "WARNING: possible irq lock inversion dependency detected\n"
         "--------------------------------------------------------\n" +
         Comm(t) + " just changed the state of lock:\n" + LockLine(g, cls, at) +
         (f.forwards ? "but this lock took another, HARDIRQ-unsafe lock in "
                       "the past:\n "
                     : "but this lock was taken by another, HARDIRQ-safe "
                       "lock in the past:\n ") +
         LockName(g, other) +
         "\n\n\nand interrupts could create inverse lock ordering between "
         "them.\n\n\nother info that might help us debug this:\n" +
         IrqScenario(f.safe, f.unsafe, f.forwards ? f.safe : f.unsafe) +
         HeldLocks(g, t) + "\n" + Name(f.safe) +
         " became HARDIRQ-irq-safe at:\n" + Indent(f.safe_at) + Name(f.unsafe) +
         " became HARDIRQ-irq-unsafe at:\n" + Indent(f.unsafe_at);
}

// print_usage_bug and print_usage_bug_scenario.
std::string LockdepUsageReport(const LockdepGraph& g, const Task* t,
                               const char* cls, const std::string& at,
                               bool in_irq, const LockdepFinding& f) {
  const char* prev = f.earlier_in_irq ? "IN-HARDIRQ-W" : "HARDIRQ-ON-W";
  const char* now = in_irq ? "IN-HARDIRQ-W" : "HARDIRQ-ON-W";
  return "================================\n"
         "WARNING: inconsistent lock state\n"
         "--------------------------------\n"
         "inconsistent {" +
         std::string(prev) + "} -> {" + now + "} usage.\n" + Comm(t) +
         (in_irq ? " [HC1[1]:SC0[0]:HE0:SE1] takes:\n"
                 : " [HC0[0]:SC0[0]:HE1:SE1] takes:\n") +
         LockLine(g, cls, at) + "{" + prev + "} state was registered at:\n" +
         Indent(f.earlier_at) +
         "\nother info that might help us debug this:\n"
         " Possible unsafe locking scenario:\n\n"
         "       CPU0\n       ----\n  lock(" +
         Name(cls) + ");\n  <Interrupt>\n    lock(" + Name(cls) +
         ");\n\n *** DEADLOCK ***\n\n" + HeldLocks(g, t);
}

}  // namespace squashlab
