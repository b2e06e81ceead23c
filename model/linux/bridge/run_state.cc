// SPDX-License-Identifier: GPL-2.0-only
// This file implements the bridge's per-run state.
#include "model/linux/bridge/run_state.h"

#include <atomic>
#include <memory>

#include "model/linux/bridge/coverage.h"

namespace squashlab::linux_bridge {

::page* RunState::Shadow(squashlab::page* p) {
  if (p == nullptr) return nullptr;
  Task* t = kernel_->current_task();
  std::lock_guard<std::mutex> l(mu_);
  auto site = sites_.find(t ? t->id : -1);
  if (site != sites_.end()) page_sites_[p] = site->second;
  ::page*& c = pages_[p];
  if (c == nullptr) {
    c = kernel_->New<::page>();
    c->sl_model = p;
  }
  auto it = mappings_.find(p->mapping);
  c->mapping = it == mappings_.end() ? nullptr : it->second;
  c->index = p->index;
  return c;
}

::address_space* RunState::CMapping(squashlab::address_space* m) {
  std::lock_guard<std::mutex> l(mu_);
  auto it = mappings_.find(m);
  return it == mappings_.end() ? nullptr : it->second;
}

void RunState::RegisterMapping(squashlab::address_space* m,
                               ::address_space* c) {
  std::lock_guard<std::mutex> l(mu_);
  mappings_[m] = c;
}

::file* RunState::CFile(squashlab::file* f, ::address_space* cm) {
  if (f == nullptr) return nullptr;
  std::lock_guard<std::mutex> l(mu_);
  ::file*& c = files_[f];
  if (c == nullptr) {
    c = kernel_->New<::file>();
    c->sl_model = f;
  }
  c->f_inode = cm->host;
  c->f_mapping = cm;
  return c;
}

void RunState::SetSite(const char* file, int line, const char* func) {
  CoverSite(file, func);
  Task* t = kernel_->current_task();
  std::lock_guard<std::mutex> l(mu_);
  sites_[t ? t->id : -1] = Site{file, line, func};
}

Site RunState::CurrentSite() {
  Task* t = kernel_->current_task();
  std::lock_guard<std::mutex> l(mu_);
  auto it = sites_.find(t ? t->id : -1);
  return it == sites_.end() ? Site{} : it->second;
}

std::string RunState::PageOwner(const squashlab::page* p) {
  std::lock_guard<std::mutex> l(mu_);
  auto it = page_sites_.find(p);
  if (it == page_sites_.end()) return "";
  return "last handed to kernel code at " + Format(it->second);
}

std::string RunState::SiteString() {
  if (kernel_->current_task() == nullptr) return "";  // quiescence checks
  return Format(CurrentSite());
}

std::string RunState::Format(const Site& s) {
  if (s.file == nullptr) return "";
  std::string f = s.file;
  size_t slash = f.rfind('/');
  if (slash != std::string::npos) f = f.substr(slash + 1);
  return f + ":" + std::to_string(s.line) + " " + s.func;
}

void RunState::Log(std::string line) {
  std::lock_guard<std::mutex> l(mu_);
  if (log_.size() < 256) log_.push_back(std::move(line));
}

std::vector<std::string> RunState::log() const {
  std::lock_guard<std::mutex> l(mu_);
  return log_;
}

namespace {
std::mutex states_mu;
std::unordered_map<Kernel*, RunState*> states;
std::atomic<uint64_t> epoch{0};  // bumped by Attach: thread caches go stale
}  // namespace

RunState& Attach(Kernel& k) {
  std::lock_guard<std::mutex> l(states_mu);
  RunState* s = k.New<RunState>(&k);
  states[&k] = s;  // replaces a finished run's state at a reused address
  epoch.fetch_add(1);
  return *s;
}

RunState& Run() {
  thread_local Kernel* last_kernel = nullptr;
  thread_local RunState* last_state = nullptr;
  thread_local uint64_t last_epoch = ~uint64_t{0};
  Kernel& k = Kernel::Current();
  uint64_t e = epoch.load(std::memory_order_acquire);
  if (&k == last_kernel && e == last_epoch) return *last_state;
  std::lock_guard<std::mutex> l(states_mu);
  auto it = states.find(&k);
  if (it == states.end())
    k.Bug(ReportKind::kBadContext, "BUG: kernel code outside a linux mount",
          "the run has no real kernel module attached");
  last_kernel = &k;
  last_state = it->second;
  last_epoch = e;
  return *last_state;
}

squashlab::page* ModelPage(const ::page* p, const char* fn) {
  Kernel& k = Kernel::Current();
  k.CheckPtr(p, fn);
  return static_cast<squashlab::page*>(p->sl_model);
}

}  // namespace squashlab::linux_bridge
