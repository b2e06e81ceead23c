// SPDX-License-Identifier: GPL-2.0-only
// This file implements the bridge's state for one run of real kernel code:
// the C-side shadow of each model page and mapping the code has been handed,
// the call site each task last passed through (for reports and traces), the
// inode hash of each super_block, and the run's kernel log. One RunState per
// Kernel, found from Kernel::Current().
#ifndef SQUASHLAB_MODEL_LINUX_BRIDGE_RUN_STATE_H_
#define SQUASHLAB_MODEL_LINUX_BRIDGE_RUN_STATE_H_

#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/kernel/filemap.h"
#include "model/kernel/fs.h"
#include "model/kernel/kernel.h"
#include "model/kernel/page.h"
#include "model/kernel/wait_queue.h"
#include "model/linux/include/squashlab/abi.h"

namespace squashlab::linux_bridge {

struct Site {
  const char* file = nullptr;
  int line = 0;
  const char* func = nullptr;
};

class RunState {
 public:
  explicit RunState(Kernel* k) : kernel_(k) {}
  Kernel& kernel() { return *kernel_; }

  // The C page standing for model page `p`, with its mapping and index as
  // the model has them now (nullptr for nullptr).
  ::page* Shadow(squashlab::page* p);
  // The C mapping of a model mapping (registered by the inode's creation).
  ::address_space* CMapping(squashlab::address_space* m);
  void RegisterMapping(squashlab::address_space* m, ::address_space* c);
  // The C file standing for model file `f` on C mapping `cm` (one per
  // model file, made on first use; nullptr for nullptr).
  ::file* CFile(squashlab::file* f, ::address_space* cm);

  void SetSite(const char* file, int line, const char* func);
  Site CurrentSite();
  // The function of the code under test making the current call, or
  // `fallback` (an allocation's site: what kmemleak's backtrace names).
  const char* CallerOr(const char* fallback) {
    const Site s = CurrentSite();
    return s.func != nullptr ? s.func : fallback;
  }
  static std::string Format(const Site& s);
  // "file.c:523 squashfs_readahead" for the current task, or "".
  std::string SiteString();
  // Where kernel code under test was last handed page p, or "".
  std::string PageOwner(const squashlab::page* p);

  std::map<std::pair<::super_block*, unsigned long>, ::inode*>& inode_hash() {
    return inode_hash_;
  }
  std::vector<::inode*>& inodes() { return inodes_; }
  // Where iget_locked waits for an inode another task is still reading
  // (I_NEW): fs/inode.c's wait_on_inode, woken by unlock_new_inode.
  squashlab::wait_queue_head_t& inode_wait() { return inode_wait_; }
  void Log(std::string line);
  std::vector<std::string> log() const;

  std::mutex& mu() { return mu_; }
  // The run's model object of each statically defined lock (DEFINE_MUTEX),
  // by the C lock's address; under mu().
  std::unordered_map<const void*, void*>& static_locks() {
    return static_locks_;
  }

 private:
  Kernel* kernel_;
  mutable std::mutex mu_;
  std::unordered_map<squashlab::page*, ::page*> pages_;
  std::unordered_map<const squashlab::page*, Site> page_sites_;
  std::unordered_map<squashlab::address_space*, ::address_space*> mappings_;
  std::unordered_map<squashlab::file*, ::file*> files_;
  std::unordered_map<int, Site> sites_;  // by task id (-1: no task)
  std::map<std::pair<::super_block*, unsigned long>, ::inode*> inode_hash_;
  std::vector<::inode*> inodes_;
  squashlab::wait_queue_head_t inode_wait_;
  std::vector<std::string> log_;
  std::unordered_map<const void*, void*> static_locks_;
};

// Makes a fresh state for run `k` (the mount of real code calls it first).
RunState& Attach(Kernel& k);
// The state of the current kernel's run.
RunState& Run();
// The model page behind a C page; oopses on a pointer that is not one.
squashlab::page* ModelPage(const ::page* p, const char* fn);

}  // namespace squashlab::linux_bridge

#endif  // SQUASHLAB_MODEL_LINUX_BRIDGE_RUN_STATE_H_
