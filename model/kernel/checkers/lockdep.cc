// SPDX-License-Identifier: GPL-2.0-only
// This file implements the lock validator's classes, its class graph and
// its reports, in the layout of kernel/locking/lockdep.c's print_*_bug.
#include "model/kernel/checkers/lockdep.h"

#include <algorithm>
#include <cstring>
#include <deque>

#include "model/kernel/checkers/call_trace.h"
#include "model/kernel/kernel.h"
#include "model/kernel/kernel_internal.h"

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
std::string LockName(Kernel& k, const std::string& cls) {
  return "(" + lockdep_class_name(cls.c_str()) + ")" +
         KernelInternal::Lockdep(k).UsageChars(cls.c_str()) +
         WaitType(cls.c_str());
}

// print_lock: the class and where the lock was taken.
std::string LockLine(Kernel& k, const std::string& cls, const std::string& at) {
  return " " + LockName(k, cls) + ", at: " + at + "\n";
}

std::string Name(const std::string& cls) {
  return lockdep_class_name(cls.c_str());
}

// lockdep_print_held_locks.
std::string HeldLocks(Kernel& k, const Task* t) {
  const size_t n = t ? t->held_locks.size() : 0;
  if (n == 0) return "no locks held by " + Comm(t) + ".\n";
  std::string s = std::to_string(n) + (n == 1 ? " lock" : " locks") +
                  " held by " + Comm(t) + ":\n";
  for (size_t i = 0; i < n; i++)
    s += " #" + std::to_string(i) + ":" +
         LockLine(k, t->held_locks[i],
                  i < t->held_at.size() ? t->held_at[i] : "?");
  return s;
}

std::string HeldAt(const Task* t, const char* cls) {
  for (size_t i = t->held_locks.size(); i-- > 0;)
    if (t->held_locks[i] == cls || std::strcmp(t->held_locks[i], cls) == 0)
      return i < t->held_at.size() ? t->held_at[i] : "?";
  return "?";
}

std::string Where(Kernel& k, const char* fn) {
  const std::string site = k.CallSite();
  return site.empty() ? std::string(fn) : site;
}

// "at" plus the kernel frames on the stack now (lockdep's saved trace).
std::string WhereWithTrace(Kernel& k, const char* fn) {
  std::string s = Where(k, fn);
  std::string trace = CurrentCallTrace();
  while (!trace.empty() && trace.back() == '\n') trace.pop_back();
  if (!trace.empty()) s += "\n" + trace;
  return s;
}

std::string Indent(const std::string& text) {
  std::string s = "       ";
  for (char c : text) {
    s += c;
    if (c == '\n') s += "       ";
  }
  return s + "\n";
}

// print_circular_bug_header, the chain and print_circular_lock_scenario.
std::string CircularReport(Kernel& k, const Task* t, const std::string& next,
                           const std::string& next_at,
                           const LockdepFinding& f) {
  const std::string& held = f.cycle.back();
  std::string s =
      "======================================================\n"
      "WARNING: possible circular locking dependency detected\n"
      "------------------------------------------------------\n" +
      Comm(t) + " is trying to acquire lock:\n" + LockLine(k, next, next_at) +
      "\nbut task is already holding lock:\n" +
      LockLine(k, held, HeldAt(t, held.c_str())) +
      "\nwhich lock already depends on the new lock.\n\n"
      "\nthe existing dependency chain (in reverse order) is:\n";
  for (size_t i = f.cycle.size(); i-- > 0;)
    s += "\n-> #" + std::to_string(i) + " " + LockName(k, f.cycle[i]) + ":\n" +
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
       Name(next) + ");\n\n *** DEADLOCK ***\n\n" + HeldLocks(k, t);
  return s;
}

// print_deadlock_bug and print_deadlock_scenario.
std::string RecursiveReport(Kernel& k, const Task* t, const char* cls,
                            const std::string& at) {
  return "============================================\n"
         "WARNING: possible recursive locking detected\n"
         "--------------------------------------------\n" +
         Comm(t) + " is trying to acquire lock:\n" + LockLine(k, cls, at) +
         "\nbut task is already holding lock:\n" +
         LockLine(k, cls, HeldAt(t, cls)) +
         "\nother info that might help us debug this:\n"
         " Possible unsafe locking scenario:\n\n"
         "       CPU0\n       ----\n  lock(" +
         Name(cls) + ");\n  lock(" + Name(cls) +
         ");\n\n *** DEADLOCK ***\n\n"
         " May be due to missing lock nesting notation\n\n" +
         HeldLocks(k, t);
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

// print_bad_irq_dependency.
std::string IrqOrderReport(Kernel& k, const Task* t, const std::string& next,
                           const std::string& next_at,
                           const LockdepFinding& f) {
  const std::string& prev = f.cycle[0];
  const std::string middle = prev == f.safe ? next : prev;
  return "=====================================================\n"
         "WARNING: HARDIRQ-safe -> HARDIRQ-unsafe lock order detected\n"
         "-----------------------------------------------------\n" +
         Comm(t) + " is trying to acquire:\n" + LockLine(k, next, next_at) +
         "\nand this task is already holding:\n" +
         LockLine(k, prev, HeldAt(t, prev.c_str())) +
         "which would create a new lock dependency:\n " + LockName(k, prev) +
         " -> " + LockName(k, next) +
         "\n\nbut this new dependency connects a HARDIRQ-irq-safe lock:\n " +
         LockName(k, f.safe) + "\n\n... which became HARDIRQ-irq-safe at:\n" +
         Indent(f.safe_at) + "\nto a HARDIRQ-irq-unsafe lock:\n " +
         LockName(k, f.unsafe) +
         "\n\n... which became HARDIRQ-irq-unsafe at:\n...\n" +
         Indent(f.unsafe_at) +
         "\nother info that might help us debug this:\n\n" +
         IrqScenario(f.safe, f.unsafe, middle) + HeldLocks(k, t);
}

// print_irq_inversion_bug.
std::string InversionReport(Kernel& k, const Task* t, const char* cls,
                            const std::string& at, const LockdepFinding& f) {
  const std::string other = f.forwards ? f.unsafe : f.safe;
  return "========================================================\n"
         "WARNING: possible irq lock inversion dependency detected\n"
         "--------------------------------------------------------\n" +
         Comm(t) + " just changed the state of lock:\n" + LockLine(k, cls, at) +
         (f.forwards ? "but this lock took another, HARDIRQ-unsafe lock in "
                       "the past:\n "
                     : "but this lock was taken by another, HARDIRQ-safe "
                       "lock in the past:\n ") +
         LockName(k, other) +
         "\n\n\nand interrupts could create inverse lock ordering between "
         "them.\n\n\nother info that might help us debug this:\n" +
         IrqScenario(f.safe, f.unsafe, f.forwards ? f.safe : f.unsafe) +
         HeldLocks(k, t) + "\n" + Name(f.safe) +
         " became HARDIRQ-irq-safe at:\n" + Indent(f.safe_at) + Name(f.unsafe) +
         " became HARDIRQ-irq-unsafe at:\n" + Indent(f.unsafe_at);
}

// print_usage_bug and print_usage_bug_scenario.
std::string UsageReport(Kernel& k, const Task* t, const char* cls,
                        const std::string& at, bool in_irq,
                        const LockdepFinding& f) {
  const char* prev = f.earlier_in_irq ? "IN-HARDIRQ-W" : "HARDIRQ-ON-W";
  const char* now = in_irq ? "IN-HARDIRQ-W" : "HARDIRQ-ON-W";
  return "================================\n"
         "WARNING: inconsistent lock state\n"
         "--------------------------------\n"
         "inconsistent {" +
         std::string(prev) + "} -> {" + now + "} usage.\n" + Comm(t) +
         (in_irq ? " [HC1[1]:SC0[0]:HE0:SE1] takes:\n"
                 : " [HC0[0]:SC0[0]:HE1:SE1] takes:\n") +
         LockLine(k, cls, at) + "{" + prev + "} state was registered at:\n" +
         Indent(f.earlier_at) +
         "\nother info that might help us debug this:\n"
         " Possible unsafe locking scenario:\n\n"
         "       CPU0\n       ----\n  lock(" +
         Name(cls) + ");\n  <Interrupt>\n    lock(" + Name(cls) +
         ");\n\n *** DEADLOCK ***\n\n" + HeldLocks(k, t);
}

}  // namespace

namespace {
// mark_usage: a lock taken in hardirq context (but by a trylock), or with
// hardirqs on outside one; with hardirqs off outside one, neither.
void MarkUsage(Kernel& k, Task* t, const char* cls, const char* fn,
               bool trylock) {
  const bool in_irq = t->in_interrupt();
  if (!in_irq && t->irqs_disabled > 0) return;
  if (in_irq && trylock) return;
  const LockdepFinding f =
      KernelInternal::Lockdep(k).Usage(cls, in_irq, [&k, fn, t] {
        return WhereWithTrace(k, fn) + "\n(by " + t->Comm() + ")";
      });
  if (!f || !KernelInternal::LockdepOn(k)) return;
  KernelInternal::LockdepOff(k);  // debug_locks_off(): one report a run
  const std::string at = Where(k, fn);
  if (f.kind == LockdepFinding::kUsage)
    k.Warn(Check::kLockdepInconsistent, "WARNING: inconsistent lock state",
           UsageReport(k, t, cls, at, in_irq, f));
  else
    k.Warn(Check::kLockdepIrqInversion,
           "WARNING: possible irq lock inversion dependency detected",
           InversionReport(k, t, cls, at, f));
}
}  // namespace

void lockdep_acquire(const char* cls, const char* fn, bool trylock) {
  Kernel& k = Kernel::Current();
  Task* t = k.current_task();
  if (cls == nullptr || t == nullptr || !k.config().debug) return;
  // Only the task itself touches its held locks.
  MarkUsage(k, t, cls, fn, trylock);
  const std::string at = Where(k, fn);
  if (!trylock && !t->held_locks.empty()) {  // the first lock orders nothing
    // check_deadlock: the class is held already, with no nesting
    // annotation telling the two apart.
    const bool recursive =
        std::any_of(t->held_locks.begin(), t->held_locks.end(),
                    [cls](const char* h) { return h == cls; });
    if (recursive && KernelInternal::LockdepOn(k)) {
      KernelInternal::LockdepOff(k);  // debug_locks_off(): one report a run
      k.Warn(Check::kLockdepRecursive,
             "WARNING: possible recursive locking detected",
             RecursiveReport(k, t, cls, at));
    } else if (!recursive) {
      const LockdepFinding f = KernelInternal::Lockdep(k).Acquire(
          t->held_locks, cls, [&k, fn] { return WhereWithTrace(k, fn); });
      if (f && KernelInternal::LockdepOn(k)) {
        KernelInternal::LockdepOff(k);
        if (f.kind == LockdepFinding::kCircular)
          k.Warn(Check::kLockdepCircular,
                 "WARNING: possible circular locking dependency detected",
                 CircularReport(k, t, cls, at, f));
        else
          k.Warn(Check::kLockdepIrqOrder,
                 "WARNING: HARDIRQ-safe -> HARDIRQ-unsafe lock order detected",
                 IrqOrderReport(k, t, cls, at, f));
      }
    }
  }
  t->held_locks.push_back(cls);
  t->held_at.push_back(at);
}

void lockdep_release(const char* cls) {
  Kernel& k = Kernel::Current();
  Task* t = k.current_task();
  if (cls == nullptr || t == nullptr || !k.config().debug) return;
  std::vector<const char*>& held = t->held_locks;
  // The lock was taken as its class or as one of its subclasses.
  const size_t len = std::strlen(cls);
  auto it = std::find_if(held.rbegin(), held.rend(), [cls, len](const char* h) {
    return h == cls ||
           (std::strncmp(h, cls, len) == 0 && (h[len] == 0 || h[len] == '/'));
  });
  if (it == held.rend()) return;
  const size_t i = static_cast<size_t>(std::next(it).base() - held.begin());
  held.erase(held.begin() + static_cast<std::ptrdiff_t>(i));
  if (i < t->held_at.size())
    t->held_at.erase(t->held_at.begin() + static_cast<std::ptrdiff_t>(i));
}

}  // namespace squashlab
