// SPDX-License-Identifier: GPL-2.0-only
// This file implements the data-race detector's vector clocks, its shadow
// of the slab arena and its report, in the layout of kernel/kcsan/report.c
// (print_report).
#include "model/kernel/checkers/kcsan.h"

#include <algorithm>
#include <cstdio>

#include "model/kernel/checkers/call_trace.h"
#include "model/kernel/checkers/symbolize.h"
#include "model/kernel/slab_arena.h"
#include "model/sched/task.h"

namespace squashlab {

Kcsan::TaskState& Kcsan::State(const Task* t) {
  TaskState& s = tasks_[t->id];
  if (s.clock.size() <= static_cast<size_t>(t->id))
    s.clock.resize(static_cast<size_t>(t->id) + 1, 0);
  if (s.clock[static_cast<size_t>(t->id)] == 0)
    s.clock[static_cast<size_t>(t->id)] = 1;
  return s;
}

void Kcsan::Join(Clock* into, const Clock& from) {
  if (into->size() < from.size()) into->resize(from.size(), 0);
  for (size_t i = 0; i < from.size(); i++)
    (*into)[i] = std::max((*into)[i], from[i]);
}

bool Kcsan::Before(const Rec& r, const TaskState& now) const {
  const auto i = static_cast<size_t>(r.task);
  return i < now.clock.size() && r.epoch <= now.clock[i];
}

// Marked, or an aligned plain write of at most a word (KCSAN's
// ASSUME_PLAIN_WRITES_ATOMIC).
bool Kcsan::Marked(const Rec& r) {
  if (r.type & kKcsanMarked) return true;
  return (r.type & kKcsanWrite) && !(r.type & kKcsanCompound) &&
         r.size <= sizeof(long) && r.addr % r.size == 0;
}

void Kcsan::Release(const void* sync) {
  Task* t = host_->CurrentTask();
  if (t == nullptr) return;
  std::lock_guard<std::recursive_mutex> l(mu_);
  TaskState& s = State(t);
  Join(&syncs_[sync], s.clock);
  s.clock[static_cast<size_t>(t->id)]++;
}

void Kcsan::Acquire(const void* sync) {
  Task* t = host_->CurrentTask();
  if (t == nullptr) return;
  std::lock_guard<std::recursive_mutex> l(mu_);
  auto it = syncs_.find(sync);
  if (it != syncs_.end()) Join(&State(t).clock, it->second);
}

std::function<void()> Kcsan::Forked(std::function<void()> body) {
  Task* t = host_->CurrentTask();
  if (t == nullptr) return body;
  Clock parent;
  {
    std::lock_guard<std::recursive_mutex> l(mu_);
    TaskState& s = State(t);
    parent = s.clock;
    s.clock[static_cast<size_t>(t->id)]++;
  }
  return [this, parent = std::move(parent), body = std::move(body)] {
    if (Task* child = host_->CurrentTask()) {
      std::lock_guard<std::recursive_mutex> l(mu_);
      Join(&State(child).clock, parent);
    }
    body();
  };
}

void Kcsan::FuncEntry(uintptr_t caller_pc) {
  Task* t = host_->CurrentTask();
  if (t == nullptr) return;
  std::lock_guard<std::recursive_mutex> l(mu_);
  TaskState& s = State(t);
  auto [it, fresh] = children_.try_emplace(
      {s.stack, caller_pc}, static_cast<uint32_t>(stacks_.size()));
  if (fresh) stacks_.push_back({s.stack, caller_pc});
  s.stack = it->second;
}

void Kcsan::FuncExit() {
  Task* t = host_->CurrentTask();
  if (t == nullptr) return;
  std::lock_guard<std::recursive_mutex> l(mu_);
  TaskState& s = State(t);
  s.stack = stacks_[s.stack].first;
}

void Kcsan::Disable(bool off) {
  Task* t = host_->CurrentTask();
  if (t == nullptr) return;
  std::lock_guard<std::recursive_mutex> l(mu_);
  State(t).disabled += off ? 1 : -1;
}

void Kcsan::Access(uintptr_t addr, size_t size, unsigned type, uintptr_t pc) {
  if (size == 0 || !SlabArena::Contains(addr)) return;
  Task* t = host_->CurrentTask();
  if (t == nullptr) return;
  bool shared = false;
  {
    std::lock_guard<std::recursive_mutex> l(mu_);
    TaskState& s = State(t);
    if (s.disabled > 0) return;
    Rec now;
    now.task = t->id;
    now.epoch = s.clock[static_cast<size_t>(t->id)];
    now.stack = s.stack;
    now.pc = pc;
    now.addr = addr;
    now.size = static_cast<uint8_t>(std::min<size_t>(size, 255));
    now.type = static_cast<uint8_t>(type);
    now.cpu = t->cpu;
    now.irq = t->in_interrupt();
    const uint64_t me = uint64_t{1} << (t->id % 64);
    for (uintptr_t g = addr >> 3; g <= (addr + size - 1) >> 3; g++) {
      Cell& c = shadow_[g];
      shared |= (c.tasks & ~me) != 0;
      c.tasks |= me;
      if (c.write.task >= 0 && c.write.task != now.task && !Before(c.write, s))
        Check(c.write, now);
      if (type & kKcsanWrite) {
        for (const Rec& r : c.reads)
          if (r.task != now.task && !Before(r, s)) Check(r, now);
        c.reads.clear();
        c.write = now;
      } else {
        auto it =
            std::find_if(c.reads.begin(), c.reads.end(),
                         [&now](const Rec& r) { return r.task == now.task; });
        if (it != c.reads.end())
          *it = now;
        else
          c.reads.push_back(now);
      }
    }
  }
  // A watchpoint: another task may run between this access and the next.
  if (watch_ && shared && !(type & kKcsanMarked)) host_->Watchpoint(addr);
}

std::vector<uintptr_t> Kcsan::Stack(const Rec& r) const {
  std::vector<uintptr_t> pcs{r.pc};
  for (uint32_t n = r.stack; n != 0; n = stacks_[n].first)
    pcs.push_back(stacks_[n].second);
  return pcs;
}

namespace {

const char* AccessType(unsigned type) {  // get_access_type
  const bool write = type & kKcsanWrite, marked = type & kKcsanMarked;
  if (type & kKcsanCompound)
    return marked ? "read-write (marked)" : "read-write";
  if (write) return marked ? "write (marked)" : "write";
  return marked ? "read (marked)" : "read";
}

std::string Hex(uintptr_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%016lx", static_cast<unsigned long>(v));
  return buf;
}

// The function the access was made in: the stack's first frame in kernel
// text.
std::string Frame(const std::vector<uintptr_t>& pcs) {
  for (uintptr_t pc : pcs)
    if (pc != 0 && InKernelText(pc - 1)) {
      std::string fn = FunctionAt(pc - 1);
      if (!fn.empty()) return fn;
    }
  return "?";
}

}  // namespace

std::string Kcsan::Describe(const Rec& r) const {
  const std::string who =
      r.irq ? "interrupt" : "task " + std::to_string(r.task);
  std::string s = std::string(AccessType(r.type)) + " to " + Hex(r.addr) +
                  " of " + std::to_string(r.size) + " bytes by " + who +
                  " on cpu " + std::to_string(r.cpu) + ":\n";
  const std::vector<uintptr_t> pcs = Stack(r);
  std::string trace = FormatCallTrace(pcs.data(), static_cast<int>(pcs.size()));
  const std::string head = "Call Trace:\n";
  if (trace.rfind(head, 0) == 0) trace = trace.substr(head.size());
  return s + trace;
}

void Kcsan::Check(const Rec& prev, const Rec& now) {
  if (Marked(prev) && Marked(now)) return;
  // Byte ranges that meet (a granule may hold two objects).
  if (prev.addr + prev.size <= now.addr || now.addr + now.size <= prev.addr)
    return;
  const std::string a = Frame(Stack(prev)), b = Frame(Stack(now));
  // Titles order the two functions (report.c: sym_strcmp).
  const auto pair = a < b ? std::make_pair(a, b) : std::make_pair(b, a);
  if (!reported_.insert(pair).second) return;
  const std::string title =
      "BUG: KCSAN: data-race in " + pair.first + " / " + pair.second;
  host_->ReportRace(
      title,
      "==================================================================\n" +
          title + "\n\n" + Describe(prev) + "\n" + Describe(now) +
          "\nReported by Kernel Concurrency Sanitizer on:\n"
          "==================================================================");
}

}  // namespace squashlab
