// SPDX-License-Identifier: GPL-2.0-only
// This file implements the hooks through which the model's locks reach the
// lock validator and the data-race detector (model/kernel/checkers): what
// include/linux/lockdep.h's lock_acquire / lock_release and KCSAN's
// kcsan_acquire / kcsan_release barriers are to the kernel's locking code.
// The checkers know nothing of the kernel API; these hooks find the running
// kernel and its task, ask the checkers, and print what they find.
#include "model/kernel/lock_hooks.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include "model/kernel/checkers/call_trace.h"
#include "model/kernel/checkers/kcsan.h"
#include "model/kernel/checkers/lockdep.h"
#include "model/kernel/kernel.h"
#include "model/kernel/kernel_internal.h"

namespace squashlab {
namespace {

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
    k.Warn(
        Check::kLockdepInconsistent, "WARNING: inconsistent lock state",
        LockdepUsageReport(KernelInternal::Lockdep(k), t, cls, at, in_irq, f));
  else
    k.Warn(Check::kLockdepIrqInversion,
           "WARNING: possible irq lock inversion dependency detected",
           LockdepInversionReport(KernelInternal::Lockdep(k), t, cls, at, f));
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
             LockdepRecursiveReport(KernelInternal::Lockdep(k), t, cls, at));
    } else if (!recursive) {
      const LockdepFinding f = KernelInternal::Lockdep(k).Acquire(
          t->held_locks, cls, [&k, fn] { return WhereWithTrace(k, fn); });
      if (f && KernelInternal::LockdepOn(k)) {
        KernelInternal::LockdepOff(k);
        if (f.kind == LockdepFinding::kCircular)
          k.Warn(
              Check::kLockdepCircular,
              "WARNING: possible circular locking dependency detected",
              LockdepCircularReport(KernelInternal::Lockdep(k), t, cls, at, f));
        else
          k.Warn(
              Check::kLockdepIrqOrder,
              "WARNING: HARDIRQ-safe -> HARDIRQ-unsafe lock order detected",
              LockdepIrqOrderReport(KernelInternal::Lockdep(k), t, cls, at, f));
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

void kcsan_release(const void* sync) {
  Kernel* k = Kernel::CurrentOrNull();
  if (k != nullptr && k->kcsan() != nullptr) k->kcsan()->Release(sync);
}

void kcsan_acquire(const void* sync) {
  Kernel* k = Kernel::CurrentOrNull();
  if (k != nullptr && k->kcsan() != nullptr) k->kcsan()->Acquire(sync);
}

}  // namespace squashlab
