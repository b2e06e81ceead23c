// SPDX-License-Identifier: GPL-2.0-only
// This file implements a data-race detector for the code under test in the
// manner of the kernel's KCSAN (kernel/kcsan/, Documentation/dev-tools/
// kcsan.rst): the code is compiled with the compiler's ThreadSanitizer
// instrumentation, as a KCSAN kernel is, and every load, store and atomic
// operation reaches the model (kcsan_runtime.cc). Where KCSAN samples with
// watchpoints, the model decides with happens-before: a vector clock per
// model task, joined through the model's synchronisation — mutexes,
// spinlocks and local locks (unlock -> lock), atomics by their memory
// orders (release -> acquire), wait queues (wake-up -> the woken), the
// completions and bios built on them (complete -> wait, submit_bio ->
// end_io), and a task's creation (the spawner -> the spawned: a queued
// work, an interrupt). Two accesses to one byte race when they are of two
// tasks, neither happens before the other, one writes, and one is plain:
// marked accesses (atomics, READ_ONCE/WRITE_ONCE as volatile, data_race())
// never race with each other, and an aligned plain write of at most a word
// counts as marked (CONFIG_KCSAN_ASSUME_PLAIN_WRITES_ATOMIC, the default).
// A race is reported as the kernel prints it: "BUG: KCSAN: data-race in A
// / B" with both accesses and their stacks; each pair of functions once a
// run. With `watch`, a plain access to memory another task has touched is
// a scheduling point of the explorer (a watchpoint's delay), so that the
// schedules interleave the racing accesses, not only see them.
#ifndef SQUASHLAB_MODEL_KERNEL_CHECKERS_KCSAN_H_
#define SQUASHLAB_MODEL_KERNEL_CHECKERS_KCSAN_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace squashlab {

struct Task;

// What the detector needs of the kernel it checks, and nothing more: the
// running task, a scheduling point at a watchpoint, and a report. The
// kernel API layer implements it (model/kernel/kernel.cc).
class KcsanHost {
 public:
  virtual Task* CurrentTask() = 0;
  // A watchpoint's delay at `addr`: another task may run now.
  virtual void Watchpoint(uintptr_t addr) = 0;
  // "BUG: KCSAN: data-race in A / B" and the report's text.
  virtual void ReportRace(const std::string& title,
                          const std::string& text) = 0;

 protected:
  ~KcsanHost() = default;
};

// An access's kind, as KCSAN_ACCESS_*.
enum KcsanType : unsigned {
  kKcsanRead = 0,
  kKcsanWrite = 1,
  kKcsanMarked = 2,    // atomic, volatile (READ_ONCE), data_race()
  kKcsanCompound = 4,  // a read-modify-write
};

class Kcsan {
 public:
  Kcsan(KcsanHost* host, bool watch) : host_(host), watch_(watch) {}

  // An access of `size` bytes at `addr` by the current task, from the
  // instruction before `pc`. Addresses outside the slab arena (stacks, the
  // model's own memory) are not shared objects of the code under test.
  void Access(uintptr_t addr, size_t size, unsigned type, uintptr_t pc);
  // The instrumented code's calls and returns (__tsan_func_entry / exit):
  // each task's stack, for the reports.
  void FuncEntry(uintptr_t caller_pc);
  void FuncExit();
  // data_race(): the current task's accesses are not checked meanwhile.
  void Disable(bool off);

  // Happens-before through a synchronisation object: everything the
  // current task did before Release(s) happens before what any task does
  // after a later Acquire(s).
  void Release(const void* sync);
  void Acquire(const void* sync);
  // `body`, run by a task about to be spawned by the current one, starting
  // after everything the spawner did so far.
  std::function<void()> Forked(std::function<void()> body);

  size_t races() const { return reported_.size(); }

 private:
  using Clock = std::vector<uint32_t>;
  struct Rec {
    int task = -1;
    uint32_t epoch = 0;
    uint32_t stack = 0;  // a node of stacks_
    uintptr_t pc = 0, addr = 0;
    uint8_t size = 0;
    uint8_t type = 0;
    int cpu = 0;
    bool irq = false;  // by an interrupt handler
  };
  struct Cell {  // an 8-byte granule
    Rec write;
    std::vector<Rec> reads;  // since the last write, one per task
    uint64_t tasks = 0;      // which tasks touched it (bit per task id)
  };
  struct TaskState {
    Clock clock;
    uint32_t stack = 0;
    int disabled = 0;
  };
  TaskState& State(const Task* t);
  static void Join(Clock* into, const Clock& from);
  bool Before(const Rec& r, const TaskState& now) const;
  static bool Marked(const Rec& r);
  void Check(const Rec& prev, const Rec& now);
  std::vector<uintptr_t> Stack(const Rec& r) const;
  std::string Describe(const Rec& r) const;

  KcsanHost* host_;
  bool watch_;
  std::recursive_mutex mu_;  // tasks may be real threads
  std::unordered_map<int, TaskState> tasks_;
  std::unordered_map<const void*, Clock> syncs_;
  std::unordered_map<uintptr_t, Cell> shadow_;  // by addr >> 3
  // Call stacks as a tree: node -> (parent, return pc); 0 is the root.
  std::vector<std::pair<uint32_t, uintptr_t>> stacks_{{0, 0}};
  std::map<std::pair<uint32_t, uintptr_t>, uint32_t> children_;
  std::set<std::pair<std::string, std::string>> reported_;
};

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_KERNEL_CHECKERS_KCSAN_H_
