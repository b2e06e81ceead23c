// SPDX-License-Identifier: GPL-2.0-only
// This file implements buffer heads, the buffer cache and their I/O.
#include "model/kernel/buffer_head.h"

#include <cstdio>
#include <mutex>

#include "model/kernel/bh_lru.h"
#include "model/kernel/kernel.h"
#include "model/kernel/kernel_internal.h"
#include "model/kernel/quiescence.h"

namespace squashlab {
namespace {

constexpr unsigned long Bit(int b) { return 1UL << b; }

bool Test(const buffer_head* bh, int b) {
  return bh->b_state.load(std::memory_order_acquire) & Bit(b);
}

// A buffer_head comes from the bh_cachep slab: once try_to_free_buffers
// freed it, a debug kernel's KASAN reports any access.
void CheckBh(buffer_head* bh, const char* fn) {
  Kernel& k = Kernel::Current();
  k.CheckPtr(bh, fn);
  if (bh->freed && k.config().debug)
    k.Bug(Check::kBhUseAfterFree,
          std::string("BUG: KASAN: use-after-free in ") + fn,
          std::string("BUG: KASAN: use-after-free in ") + fn +
              "\nThe buggy address belongs to the object of cache "
              "buffer_head, freed by try_to_free_buffers\n" +
              dump_buffer(bh));
}

buffer_head* Enter(buffer_head* bh, const char* fn) {
  Kernel& k = Kernel::Current();
  CheckBh(bh, fn);
  k.Point(fn, bh->b_blocknr);
  return bh;
}

[[noreturn]] void BufferBug(Check check, buffer_head* bh, const char* fn,
                            const char* what) {
  Kernel::Current().Bug(check, std::string("kernel BUG in ") + fn + ": " + what,
                        std::string("kernel BUG at fs/buffer.c! ") + fn + ": " +
                            what + "\n" + dump_buffer(bh));
}

// __brelse's WARN: printed with a backtrace, the count left alone, and the
// kernel (and the run) goes on.
void FreeFreeBuffer(buffer_head* bh, const char* fn) {
  Kernel::Current().Warn(
      Check::kBrelseFreeBuffer, "VFS: brelse: Trying to free free buffer",
      std::string("WARNING: at fs/buffer.c:1204 ") + fn +
          "()\nVFS: brelse: Trying to free free buffer\n" + dump_buffer(bh));
}

void end_bio_bh_io_sync(bio* b, int error) {
  auto* bh = static_cast<buffer_head*>(b->bi_private);
  if (!bh->in_io)
    BufferBug(Check::kBhEndIoNotUnderIo, bh, "end_bio_bh_io_sync",
              "end_io on a buffer not under I/O");
  bh->in_io = false;
  bh->b_end_io(bh, error == 0);
  bio_put(b);
}

}  // namespace

std::string dump_buffer(const buffer_head* bh) {
  char buf[160];
  std::snprintf(buf, sizeof buf,
                "buffer_head: blocknr:%llu size:%zu count:%d state:0x%lx%s",
                static_cast<unsigned long long>(bh->b_blocknr), bh->b_size,
                bh->b_count.load(), bh->b_state.load(),
                bh->in_io ? " (under I/O)" : "");
  return buf;
}

// __find_get_block: this CPU's LRU, else the block device's page cache
// (__find_get_block_slow; grow_buffers creates the buffer when missing),
// then bh_lru_install.
buffer_head* __getblk(block_device* bdev, sector_t block, unsigned size) {
  Kernel& k = Kernel::Current();
  k.CheckPtr(bdev, "__getblk");
  k.MightSleep("__getblk");
  k.Point("__getblk", block);
  k.Charge(CostKind::kPageCacheOp, 1);
  if (buffer_head* bh = lookup_bh_lru(bdev, block)) return bh;
  buffer_head* bh = nullptr;
  {
    std::lock_guard<RunMutex> l(KernelInternal::TreeLock(k));
    buffer_head*& slot = KernelInternal::BufferCache(k)[{bdev, block}];
    if (slot == nullptr) {
      slot = KernelInternal::AllocBufferHead(k, size);
      slot->b_bdev = bdev;
      slot->b_blocknr = block;
      slot->b_state.store(Bit(BH_Mapped));
    }
    bh = slot;
    bh->b_count.fetch_add(1);
  }
  bh_lru_install(bh);
  return bh;
}

buffer_head* sb_getblk(super_block* sb, sector_t block) {
  Kernel::Current().CheckPtr(sb, "sb_getblk");
  return __getblk(sb->s_bdev, block, static_cast<unsigned>(sb->s_blocksize));
}

buffer_head* sb_bread(super_block* sb, sector_t block) {
  buffer_head* bh = sb_getblk(sb, block);
  if (buffer_uptodate(bh)) return bh;
  ll_rw_block(READ, 1, &bh);
  wait_on_buffer(bh);
  if (buffer_uptodate(bh)) return bh;
  brelse(bh);
  return nullptr;
}

void get_bh(buffer_head* bh) { Enter(bh, "get_bh")->b_count.fetch_add(1); }

// A silent atomic_dec: a count taken below 0 shows later, when a __brelse
// finds it at exactly 0 (or never).
void put_bh(buffer_head* bh) { Enter(bh, "put_bh")->b_count.fetch_sub(1); }

// if (atomic_read(&buf->b_count)) { put_bh(buf); return; } WARN(...)
void __brelse(buffer_head* bh) {
  Enter(bh, "__brelse");
  if (bh->b_count.load() != 0) {
    bh->b_count.fetch_sub(1);
    return;
  }
  FreeFreeBuffer(bh, "__brelse");
}

void brelse(buffer_head* bh) {
  if (bh) __brelse(bh);
}

void lock_buffer(buffer_head* bh) {
  Kernel& k = Kernel::Current();
  CheckBh(bh, "lock_buffer");
  k.MightSleep("lock_buffer");
  k.Point("lock_buffer", bh->b_blocknr);
  while (bh->b_state.fetch_or(Bit(BH_Lock), std::memory_order_acquire) &
         Bit(BH_Lock)) {
    k.Sleep(
        KernelInternal::Waitqueue(k, Kernel::WaitOn::kBuffer, bh->b_blocknr),
        [bh] { return !Test(bh, BH_Lock); }, "lock_buffer", bh->b_blocknr);
  }
}

int trylock_buffer(buffer_head* bh) {
  Enter(bh, "trylock_buffer");
  return !(bh->b_state.fetch_or(Bit(BH_Lock), std::memory_order_acquire) &
           Bit(BH_Lock));
}

void unlock_buffer(buffer_head* bh) {
  Kernel& k = Kernel::Current();
  Enter(bh, "unlock_buffer");
  if (!Test(bh, BH_Lock))
    k.Lint(Check::kUnlockBufferUnlocked, "unlock_buffer of an unlocked buffer",
           std::string("unlock_buffer: buffer not locked\n") + dump_buffer(bh));
  bh->b_state.fetch_and(~Bit(BH_Lock), std::memory_order_release);
  k.Wake(KernelInternal::Waitqueue(k, Kernel::WaitOn::kBuffer, bh->b_blocknr));
}

void wait_on_buffer(buffer_head* bh) {
  Kernel& k = Kernel::Current();
  CheckBh(bh, "wait_on_buffer");
  k.MightSleep("wait_on_buffer");
  k.Point("wait_on_buffer", bh->b_blocknr);
  k.Sleep(
      KernelInternal::Waitqueue(k, Kernel::WaitOn::kBuffer, bh->b_blocknr),
      [bh] { return !Test(bh, BH_Lock); }, "wait_on_buffer", bh->b_blocknr);
}

int buffer_uptodate(buffer_head* bh) {
  return Test(Enter(bh, "buffer_uptodate"), BH_Uptodate);
}
void set_buffer_uptodate(buffer_head* bh) {
  Enter(bh, "set_buffer_uptodate")->b_state.fetch_or(Bit(BH_Uptodate));
}
void clear_buffer_uptodate(buffer_head* bh) {
  Enter(bh, "clear_buffer_uptodate")->b_state.fetch_and(~Bit(BH_Uptodate));
}
int buffer_locked(const buffer_head* bh) { return Test(bh, BH_Lock); }
int buffer_req(buffer_head* bh) {
  return Test(Enter(bh, "buffer_req"), BH_Req);
}
int buffer_mapped(buffer_head* bh) {
  return Test(Enter(bh, "buffer_mapped"), BH_Mapped);
}

int submit_bh(int rw, buffer_head* bh) {
  Enter(bh, "submit_bh");
  if (!Test(bh, BH_Lock))
    BufferBug(Check::kSubmitBhUnlocked, bh, "submit_bh",
              "BUG_ON(!buffer_locked(bh))");
  if (!Test(bh, BH_Mapped))
    BufferBug(Check::kSubmitBhUnmapped, bh, "submit_bh",
              "BUG_ON(!buffer_mapped(bh))");
  if (bh->b_end_io == nullptr)
    BufferBug(Check::kSubmitBhNoEndIo, bh, "submit_bh",
              "BUG_ON(!bh->b_end_io)");
  if (bh->in_io)
    BufferBug(Check::kSubmitBhUnderIo, bh, "submit_bh",
              "buffer already under I/O");
  bh->b_state.fetch_or(Bit(BH_Req));
  bh->in_io = true;
  bio* b = bio_alloc(GFP_NOFS, 1);
  b->bi_sector = bh->b_blocknr * (bh->b_size >> 9);
  b->bi_bdev = bh->b_bdev;
  b->bi_io_vec.push_back(
      bio_vec{nullptr, bh->b_data, static_cast<unsigned>(bh->b_size), 0});
  b->bi_size = static_cast<unsigned>(bh->b_size);
  b->bi_end_io = end_bio_bh_io_sync;
  b->bi_private = bh;
  submit_bio(rw, b);
  return 0;
}

void ll_rw_block(int rw, int nr, buffer_head* bhs[]) {
  for (int i = 0; i < nr; i++) {
    buffer_head* bh = bhs[i];
    if (!trylock_buffer(bh)) continue;
    if (rw != WRITE && !buffer_uptodate(bh)) {
      bh->b_end_io = end_buffer_read_sync;
      get_bh(bh);
      submit_bh(rw, bh);
      continue;
    }
    unlock_buffer(bh);
  }
}

void end_buffer_read_sync(buffer_head* bh, int uptodate) {
  if (uptodate)
    set_buffer_uptodate(bh);
  else
    clear_buffer_uptodate(bh);
  unlock_buffer(bh);
  put_bh(bh);
}

unsigned long shrink_buffer_heads() {
  Kernel& k = Kernel::Current();
  k.Point("try_to_free_buffers", 0);
  std::lock_guard<RunMutex> l(KernelInternal::TreeLock(k));
  auto& cache = KernelInternal::BufferCache(k);
  unsigned long n = 0;
  for (auto it = cache.begin(); it != cache.end();) {
    buffer_head* bh = it->second;
    // drop_buffers(): busy when referenced, locked or dirty.
    if (bh->b_count.load() != 0 ||
        (bh->b_state.load() & (Bit(BH_Lock) | Bit(BH_Dirty))) || bh->in_io) {
      ++it;
      continue;
    }
    bh->freed = true;  // free_buffer_head: back to bh_cachep
    it = cache.erase(it);
    n++;
  }
  if (n > 0) KernelInternal::NoteWideEffect(k);
  return n;
}

// At quiescence (umount: invalidate_bh_lrus first) no buffer_head is
// referenced or locked.
void CheckBufferHeadsAtQuiescence(Kernel& k) {
  {
    KernelScope scope(&k);  // the checks may run outside the run's scope
    invalidate_bh_lrus();
  }
  for (auto& b : KernelInternal::BufferHeads(k)) {
    if (b->freed) continue;
    if (b->b_count.load() != 0)
      return k.Lint(Check::kBhRefLeak,
                    "buffer_head reference leak at quiescence",
                    dump_buffer(b.get()));
    if (buffer_locked(b.get()))
      return k.Lint(Check::kBhLockedAtQuiescence,
                    "buffer left locked at quiescence", dump_buffer(b.get()));
  }
}
const QuiescenceCheckRegistration kBufferHeadsAtQuiescence(
    20, "buffer_heads", CheckBufferHeadsAtQuiescence);

}  // namespace squashlab
