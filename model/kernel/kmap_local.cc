// SPDX-License-Identifier: GPL-2.0-only
// This file implements the local mappings of each task: their stack, the
// LIFO check of kunmap_local_indexed, and the fixmap slots of
// CONFIG_DEBUG_KMAP_LOCAL_FORCE_MAP (mm/highmem.c, __kmap_local_pfn_prot,
// kunmap_local_indexed; kmap_local.h says how a slot is made).
#include "model/kernel/kmap_local.h"

#include <sys/mman.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "model/kernel/kernel.h"
#include "model/kernel/kernel_internal.h"
#include "model/kernel/page.h"
#include "model/sched/task_fault.h"

namespace squashlab {
namespace {

constexpr uintptr_t kPageSize = 4096;
constexpr uintptr_t kPageMask = ~(kPageSize - 1);
// include/asm-generic/kmap_size.h with CONFIG_DEBUG_KMAP_LOCAL: 33 slots a
// CPU; mm/highmem.c's KM_INCR 2 leaves every even slot unmapped as a guard.
constexpr int kSlots = 33;
constexpr int kIncr = 2;
constexpr uintptr_t kWindowBytes = kSlots * kPageSize;
// Windows reserved for the whole process (address space only, PROT_NONE):
// one per task that maps, for its kernel's lifetime.
constexpr int kWindows = 1024;

struct Slot {
  page* held = nullptr;
  std::unique_ptr<char[]> snapshot;  // the page's bytes when mapped
  std::string comm;                  // the task that mapped it
  std::string mapped_at, unmapped_at;
  uint64_t pfn = 0;
  bool ever = false;
};

struct Window {
  std::array<Slot, kSlots> slots;
};

std::mutex g_mu;
uintptr_t g_base = 0;  // 0: not reserved (or refused)
bool g_tried = false;
std::vector<int> g_free;
std::vector<std::unique_ptr<Window>> g_windows;

uintptr_t WindowBase(int w) { return g_base + w * kWindowBytes; }

// REQUIRES: g_mu.
bool ReserveLocked() {
  if (g_tried) return g_base != 0;
  g_tried = true;
  void* m = mmap(nullptr, kWindows * kWindowBytes, PROT_NONE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED) return false;
  g_base = reinterpret_cast<uintptr_t>(m);
  g_windows.resize(kWindows);
  for (int w = kWindows - 1; w >= 0; w--) g_free.push_back(w);
  return true;
}

// A window taken by a task for its kernel's lifetime; given back (every
// slot unmapped, its history forgotten) when the kernel goes.
struct WindowLease {
  explicit WindowLease(int w) : index(w) {}
  ~WindowLease() {
    std::lock_guard<std::mutex> l(g_mu);
    mprotect(reinterpret_cast<void*>(WindowBase(index)), kWindowBytes,
             PROT_NONE);
    g_windows[index].reset();
    g_free.push_back(index);
  }
  WindowLease(const WindowLease&) = delete;
  WindowLease& operator=(const WindowLease&) = delete;
  int index;
};

bool ForceMap(const Kernel& k) {
  return k.config().debug && TaskFaultLandingEnabled();
}

// The task's window, taken on its first mapping; -1 when none is left.
int TaskWindow(Kernel& k, Task* t) {
  if (t->kmap_window != nullptr)
    return static_cast<WindowLease*>(t->kmap_window)->index;
  int w = -1;
  {
    std::lock_guard<std::mutex> l(g_mu);
    if (!ReserveLocked() || g_free.empty()) return -1;
    w = g_free.back();
    g_free.pop_back();
    g_windows[w] = std::make_unique<Window>();
  }
  t->kmap_window = k.New<WindowLease>(w);
  return w;
}

// The window and slot of a slot address, if it is one. REQUIRES: g_mu.
bool SlotOf(uintptr_t addr, int* w, int* s) {
  if (g_base == 0 || addr < g_base || addr >= g_base + kWindows * kWindowBytes)
    return false;
  *w = static_cast<int>((addr - g_base) / kWindowBytes);
  *s = static_cast<int>((addr - WindowBase(*w)) / kPageSize);
  return true;
}

void KmapWarn(Kernel& k, Task* t, int line, uintptr_t addr,
              const std::string& what) {
  k.Warn(Check::kKunmapLocalOrder, "WARNING in kunmap_local_indexed",
         "WARNING: CPU: " + std::to_string(t->cpu) +
             " PID: " + std::to_string(t->id) + " at mm/highmem.c:" +
             std::to_string(line) + " kunmap_local_indexed\nkunmap_local(" +
             Hex16(addr) + "): " + what);
}

// __kmap_local_pfn_prot: the next slot of the task's window gets the page.
// Returns 0 when the page must be handed out as its own address.
uintptr_t MapSlot(Kernel& k, Task* t, page* p) {
  const int w = TaskWindow(k, t);
  if (w < 0) return 0;
  const int idx = static_cast<int>(t->kmap_local.size()) * kIncr + kIncr - 1;
  if (idx >= kSlots) return 0;  // past KM_MAX_IDX: the kernel's BUG_ON
  const uintptr_t addr = WindowBase(w) + idx * kPageSize;
  void* va = reinterpret_cast<void*>(addr);
  std::lock_guard<std::mutex> l(g_mu);
  if (mprotect(va, kPageSize, PROT_READ | PROT_WRITE) != 0) return 0;
  Slot& s = g_windows[w]->slots[idx];
  if (!s.snapshot) s.snapshot = std::make_unique<char[]>(kPageSize);
  std::memcpy(s.snapshot.get(), p->data, kPageSize);
  std::memcpy(va, p->data, kPageSize);
  s.held = p;
  s.pfn = p->pfn;
  s.comm = t->Comm();
  s.mapped_at = k.CallSite();
  s.unmapped_at.clear();
  s.ever = true;
  return addr;
}

// kunmap_local_indexed's pte_clear of slot `addr`: the words the mapper
// changed go back to the page, the slot becomes a hole.
void UnmapSlot(Kernel& k, uintptr_t addr) {
  std::lock_guard<std::mutex> l(g_mu);
  int w = 0, idx = 0;
  if (!SlotOf(addr, &w, &idx) || !g_windows[w]) return;
  Slot& s = g_windows[w]->slots[idx];
  if (s.held != nullptr) {
    const auto* now = reinterpret_cast<const uint64_t*>(addr);
    const auto* was = reinterpret_cast<const uint64_t*>(s.snapshot.get());
    auto* to = reinterpret_cast<uint64_t*>(s.held->data);
    for (size_t i = 0; i < kPageSize / sizeof(uint64_t); i++)
      if (now[i] != was[i]) to[i] = now[i];
  }
  mprotect(reinterpret_cast<void*>(addr), kPageSize, PROT_NONE);
  s.held = nullptr;
  s.unmapped_at = k.CallSite();
}

}  // namespace

void* kmap_local_page(page* p) {
  void* addr = page_address(p);
  Kernel* k = Kernel::CurrentOrNull();
  Task* t = k != nullptr ? k->current_task() : nullptr;
  if (t == nullptr) return addr;
  if (ForceMap(*k)) {
    const uintptr_t slot = MapSlot(*k, t, p);
    if (slot != 0) {
      t->kmap_local.push_back(slot);
      return reinterpret_cast<void*>(slot);
    }
  }
  t->kmap_local.push_back(reinterpret_cast<uintptr_t>(addr) & kPageMask);
  return addr;
}

void kunmap_local(const void* vaddr) {
  Kernel* k = Kernel::CurrentOrNull();
  Task* t = k != nullptr ? k->current_task() : nullptr;
  if (t == nullptr) return;
  const uintptr_t addr = reinterpret_cast<uintptr_t>(vaddr) & kPageMask;
  if (t->kmap_local.empty()) {
    // Not a local mapping of this task: FORCE_MAP's "should never happen".
    KmapWarn(*k, t, 607, addr, "no local mapping of the task is live");
    return;
  }
  bool slot_addr = false, slot_top = false;
  {
    std::lock_guard<std::mutex> l(g_mu);
    int w = 0, idx = 0;
    slot_addr = SlotOf(addr, &w, &idx);
    slot_top = SlotOf(t->kmap_local.back(), &w, &idx);
  }
  if (slot_top && !slot_addr) {
    // Outside the fixmap range under FORCE_MAP: nothing is popped.
    KmapWarn(*k, t, 607, addr,
             "not a kmap_local address (outside the fixmap slots)");
    return;
  }
  const uintptr_t innermost = t->kmap_local.back();
  t->kmap_local.pop_back();  // kmap_local_idx_pop(), whatever addr was
  UnmapSlot(*k, innermost);  // pte_clear of the innermost slot
  if (addr != innermost) {
    std::string live;
    for (uintptr_t m : t->kmap_local) live += " " + Hex16(m);
    KmapWarn(*k, t, 623, addr,
             "not the innermost local mapping (" + Hex16(innermost) +
                 "; the task's others:" + (live.empty() ? " none" : live) +
                 "): local mappings are unmapped in the reverse order of "
                 "mapping");
  }
}

bool KmapLocalSlotFault(uintptr_t addr, std::string* what) {
  std::lock_guard<std::mutex> l(g_mu);
  int w = 0, idx = 0;
  if (!SlotOf(addr, &w, &idx)) return false;
  std::string d = "the address is in kmap_local slot " + std::to_string(idx) +
                  " of a task's fixmap window "
                  "(CONFIG_DEBUG_KMAP_LOCAL_FORCE_MAP)";
  const Slot* s = g_windows[w] ? &g_windows[w]->slots[idx] : nullptr;
  if (idx % kIncr == 0) {
    d += ": a guard slot, never mapped (an access past a mapped page)";
  } else if (s == nullptr || !s->ever) {
    d += ": nothing was ever mapped there";
  } else {
    d += ": it mapped page pfn " + std::to_string(s->pfn) + " for " + s->comm;
    if (!s->mapped_at.empty()) d += " (kmap_local at " + s->mapped_at + ")";
    d += ", unmapped by kunmap_local";
    if (!s->unmapped_at.empty()) d += " at " + s->unmapped_at;
    d += ": a use of the mapping's address after kunmap_local";
  }
  *what = d;
  return true;
}

}  // namespace squashlab
