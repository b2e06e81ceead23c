// SPDX-License-Identifier: GPL-2.0-only
// This file implements the tests of the bridge's inode cache: iget_locked
// looks the hash up again once it has allocated a new inode (the
// allocation may sleep, and another task may hash the same number
// meanwhile: fs/inode.c iget_locked's second find_inode_fast under
// inode_hash_lock); the other task's inode wins and the new one is
// destroyed.
#include <gtest/gtest.h>

#include "model/kernel/slab.h"
#include "model/kernel/testing/contract.h"
#include "model/linux/bridge/run_state.h"

extern "C" {
struct inode* iget_locked(struct super_block* sb, unsigned long ino);
void unlock_new_inode(struct inode* i);
}

namespace squashlab::linux_bridge {
namespace {

constexpr unsigned long kINew = 1UL << 3;  // include/linux/fs.h I_NEW

struct Seen {
  ::inode* outer = nullptr;  // the first lookup's inode
  ::inode* inner = nullptr;  // the lookup made during its allocation
  int allocs = 0;
  int live = 0;  // inodes allocated and not freed
};
Seen* seen = nullptr;

// The allocation of the first lookup's inode is where another task's
// lookup of the same number runs (it sleeps there in the kernel): made
// here, from inside it, so the order is fixed.
::inode* AllocInode(::super_block* sb) {
  void* p = kzalloc(sizeof(::inode), GFP_KERNEL);
  if (p == nullptr) return nullptr;
  seen->live++;
  if (seen->allocs++ == 0) {
    seen->inner = iget_locked(sb, 7);
    if (seen->inner != nullptr && (seen->inner->i_state & kINew) != 0)
      unlock_new_inode(seen->inner);
  }
  return static_cast<::inode*>(p);
}
void FreeInode(::inode* i) {
  seen->live--;
  kfree(i);
}
::super_operations Ops() {
  ::super_operations ops{};
  ops.alloc_inode = AllocInode;
  ops.free_inode = FreeInode;
  return ops;
}
const ::super_operations kOps = Ops();

TEST(IgetLocked, AnInodeHashedDuringTheAllocationWins) {
  Seen s;
  seen = &s;
  Report r = testing::RunTask(
      [] {
        auto* sb = Kernel::Current().New<::super_block>();
        sb->s_op = &kOps;
        seen->outer = iget_locked(sb, 7);
      },
      {}, [](Kernel& k) { Attach(k); });
  seen = nullptr;
  EXPECT_SILENT(r);
  ASSERT_NE(s.inner, nullptr);
  EXPECT_EQ(s.outer, s.inner);  // one inode for the number
  EXPECT_EQ(s.allocs, 2);
  EXPECT_EQ(s.live, 1);                      // the second allocation destroyed
  EXPECT_EQ(s.outer->i_state & kINew, 0UL);  // read by the inner lookup
}

}  // namespace
}  // namespace squashlab::linux_bridge
