// SPDX-License-Identifier: GPL-2.0-only
// This file implements the reader and reclaim tasks, and a reader that
// drops pages with posix_fadvise(POSIX_FADV_DONTNEED).
#include "harness/workloads.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <set>
#include <utility>
#include <vector>

#include "harness/image_model.h"
#include "hw_emul/block_device.h"
#include "model/base/rng.h"
#include "model/kernel/buffer_head.h"
#include "model/kernel/filemap.h"
#include "model/kernel/kernel.h"
#include "model/kernel/page.h"
#include "model/kernel/preempt.h"
#include "model/kernel/ram_disk.h"
#include "model/kernel/slab.h"
#include "model/mm/fadvise.h"
#include "model/mm/file_read.h"
#include "model/mm/filemap_read.h"
#include "model/mm/migrate.h"
#include "model/variants/squashfs.h"

namespace squashlab {
namespace {

// One read through the MM, checked against the oracle.
bool CheckedRead(file* f, const FileModel* oracle, uint64_t pos, size_t len,
                 bool eio_allowed, std::vector<char>& buf) {
  Kernel& k = Kernel::Current();
  buf.assign(len, 0);
  int64_t ppos = static_cast<int64_t>(pos);
  long got = mm_file_read(f, buf.data(), len, &ppos);
  if (got < 0) {
    if (eio_allowed) return false;
    k.Bug(Check::kWrongData,
          "squashlab: read returned EIO with no fault injected",
          "read(" + oracle->name + ", offset " + std::to_string(pos) + ", " +
              std::to_string(len) + ") = " + std::to_string(got));
  }
  uint64_t size = oracle->content.size();
  size_t want = pos >= size
                    ? 0
                    : static_cast<size_t>(std::min<uint64_t>(len, size - pos));
  if (static_cast<size_t>(got) != want &&
      !(eio_allowed && static_cast<size_t>(got) < want))
    k.Bug(Check::kWrongData, "squashlab: read returned a wrong count",
          "read(" + oracle->name + ", offset " + std::to_string(pos) + ", " +
              std::to_string(len) + ") = " + std::to_string(got) + ", want " +
              std::to_string(want));
  // memcmp first: the byte loop below only names the first difference.
  const bool same =
      got == 0 || std::memcmp(buf.data(), oracle->content.data() + pos,
                              static_cast<size_t>(got)) == 0;
  for (size_t i = 0; !same && i < static_cast<size_t>(got); i++) {
    if (buf[i] != oracle->content[pos + i]) {
      char body[200];
      std::snprintf(body, sizeof body,
                    "read(%s) at offset %llu: byte 0x%02x, the image holds "
                    "0x%02x (page %llu)",
                    oracle->name.c_str(),
                    static_cast<unsigned long long>(pos + i),
                    static_cast<unsigned char>(buf[i]),
                    static_cast<unsigned char>(oracle->content[pos + i]),
                    static_cast<unsigned long long>((pos + i) >> 12));
      k.Bug(Check::kWrongData, "squashlab: read returned wrong bytes", body);
    }
  }
  // The last page past EOF holds zeros (what mmap of the file shows: POSIX
  // zero-fills the partial page at the end of an object; every file
  // system zeroes it when it fills the page).
  if (size % PAGE_SIZE != 0 && pos + static_cast<uint64_t>(got) >= size &&
      got > 0) {
    size_t at = 0;
    unsigned char byte = 0;
    const pgoff_t last = (size - 1) >> PAGE_SHIFT;
    if (OracleNonzeroTail(f->f_mapping, last, size % PAGE_SIZE, &at, &byte)) {
      char body[240];
      std::snprintf(body, sizeof body,
                    "%s: the last page (index %llu) holds 0x%02x at offset "
                    "%zu, past EOF (i_size %llu): a mapping of the file "
                    "shows it where zeros belong",
                    oracle->name.c_str(), static_cast<unsigned long long>(last),
                    byte, at, static_cast<unsigned long long>(size));
      k.Bug(Check::kWrongData, "squashlab: the last page is not zero past EOF",
            body);
    }
  }
  return static_cast<size_t>(got) == want;
}

TaskSpec Spec(const std::string& comm, int cpu) {
  TaskSpec s;
  s.name = comm;
  s.context = TaskContext::kProcess;
  s.cpu = cpu;
  return s;
}

// The time a read(2) costs outside the page-cache read (ReaderOptions).
void ChargeCall(Kernel& k, const ReaderOptions& opt) {
  if (opt.call_ns == 0) return;
  if (opt.call_on_device == nullptr) {
    k.Delay(opt.call_ns);
    return;
  }
  uint64_t end = opt.call_on_device->Occupy(k.NowNs(), opt.call_ns);
  k.Delay(end - k.NowNs());
}

}  // namespace

void spawn_dd(Kernel& k, inode* ino, const FileModel* oracle,
              const ReaderOptions& opt) {
  TaskSpec s = Spec(opt.comm, opt.cpu);
  s.body = [ino, oracle, opt] {
    Kernel& kk = Kernel::Current();
    file* f = open_file(ino, opt.ra_pages);
    std::vector<char> buf;
    DdProbe* probe = opt.probe;
    std::set<std::pair<unsigned long, unsigned>> windows;
    uint64_t end = std::min<uint64_t>(opt.end, oracle->content.size());
    uint64_t from =
        probe && probe->measure_from < end ? probe->measure_from : opt.start;
    bool started = false;
    for (uint64_t pos = opt.start; pos < end; pos += opt.bs) {
      if (probe && !started && pos >= from) {
        started = true;
        probe->start_ns = kk.NowNs();
        probe->bytes = end - pos;
      }
      ChargeCall(kk, opt);
      size_t len =
          opt.whole_bs_reads
              ? opt.bs
              : static_cast<size_t>(std::min<uint64_t>(opt.bs, end - pos));
      bool ok = CheckedRead(f, oracle, pos, len, opt.eio_allowed, buf);
      if (probe) {
        if (f->f_ra.size > 0) windows.insert({f->f_ra.start, f->f_ra.size});
        probe->ra_max_pages =
            std::max<uint64_t>(probe->ra_max_pages, f->f_ra.size);
      }
      if (!ok) break;  // dd stops at EIO
    }
    if (probe) {
      probe->end_ns = kk.NowNs();
      probe->ra_windows = windows.size();
      probe->done = true;
    }
  };
  k.Spawn(std::move(s));
}

void spawn_cyclictest(Kernel& k, int cpu, uint64_t period_ns,
                      std::vector<const DdProbe*> until,
                      std::vector<uint64_t>* latency_ns) {
  TaskSpec s = Spec("cyclictest-" + std::to_string(cpu), cpu);
  s.prio = 99;
  s.body = [period_ns, until, latency_ns] {
    Kernel& kk = Kernel::Current();
    auto running = [&until] {
      for (const DdProbe* p : until)
        if (!p->done) return true;
      return false;
    };
    uint64_t next = kk.NowNs();
    while (running()) {
      next += period_ns;
      uint64_t now = kk.NowNs();
      kk.Delay(next > now ? next - now : 0);
      model_point("cyclictest");
      latency_ns->push_back(kk.NowNs() - next);
    }
  };
  k.Spawn(std::move(s));
}

void spawn_cat(Kernel& k,
               const std::vector<std::pair<inode*, const FileModel*>>& files,
               uint64_t span, const ReaderOptions& opt) {
  TaskSpec s = Spec(opt.comm, opt.cpu);
  s.body = [files, span, opt] {
    std::vector<char> buf;
    for (const auto& [ino, oracle] : files) {
      file* f = open_file(ino, opt.ra_pages);
      const uint64_t size = oracle->content.size();
      const uint64_t head = size <= 2 * span ? size : span;
      const uint64_t tail = size <= 2 * span ? size : size - span;
      for (uint64_t pos = 0; pos < size;) {
        size_t len =
            static_cast<size_t>(std::min<uint64_t>(opt.bs, size - pos));
        if (pos < head)
          len = static_cast<size_t>(std::min<uint64_t>(len, head - pos));
        if (!CheckedRead(f, oracle, pos, len, opt.eio_allowed, buf)) return;
        pos += len;
        if (pos == head && pos < tail) pos = tail;  // skip the middle
      }
    }
  };
  k.Spawn(std::move(s));
}

void spawn_random_reader(Kernel& k, inode* ino, const FileModel* oracle,
                         const ReaderOptions& opt, int reads, uint64_t salt) {
  uint64_t seed = Rng::Mix(k.config().seed, salt);
  TaskSpec s = Spec(opt.comm, opt.cpu);
  s.body = [ino, oracle, opt, reads, seed] {
    file* f = open_file(ino, opt.ra_pages);
    f->random = true;
    Rng rng(seed);
    std::vector<char> buf;
    uint64_t size = oracle->content.size();
    for (int r = 0; r < reads && size > 0; r++) {
      uint64_t pos = rng.Below(size) & ~uint64_t{511};
      CheckedRead(f, oracle, pos, opt.bs, opt.eio_allowed, buf);
    }
  };
  k.Spawn(std::move(s));
}

void spawn_dontneed_reader(Kernel& k, inode* ino, const FileModel* oracle,
                           uint64_t block_size, const ReaderOptions& opt,
                           uint64_t salt, bool last) {
  const uint64_t seed = Rng::Mix(k.config().seed, salt);
  TaskSpec s = Spec(opt.comm, opt.cpu);
  s.body = [ino, oracle, block_size, opt, seed, last] {
    file* f = open_file(ino, opt.ra_pages);
    Rng rng(seed);
    std::vector<char> buf;
    const uint64_t size = oracle->content.size();
    if (size == 0) return;
    const uint64_t blocks = (size + block_size - 1) / block_size;
    const uint64_t start = (last ? blocks - 1 : rng.Below(blocks)) * block_size;
    const uint64_t end = std::min(size, start + block_size);
    auto read = [&](uint64_t from, uint64_t to) {
      for (uint64_t pos = from; pos < to; pos += opt.bs)
        if (!CheckedRead(
                f, oracle, pos,
                static_cast<size_t>(std::min<uint64_t>(opt.bs, to - pos)),
                opt.eio_allowed, buf))
          return false;
      return true;
    };
    if (!read(start, end)) return;
    // One page of the block (not its first), then the pages between its
    // first and its last, then the whole file: each dropped and read again.
    const uint64_t pages = (end - start + PAGE_SIZE - 1) / PAGE_SIZE;
    const uint64_t one =
        start + PAGE_SIZE * (pages > 1 ? 1 + rng.Below(pages - 1) : 0);
    fadvise_dontneed(f, one, PAGE_SIZE);
    if (!read(one, std::min(end, one + PAGE_SIZE))) return;
    if (pages > 2) {
      fadvise_dontneed(f, start + PAGE_SIZE, (pages - 2) * PAGE_SIZE);
      const uint64_t mid = start + PAGE_SIZE * (1 + rng.Below(pages - 2));
      if (!read(mid, mid + PAGE_SIZE) || !read(start, end)) return;
    }
    fadvise_dontneed(f, 0, 0);
    read(start, end);
  };
  k.Spawn(std::move(s));
}

void spawn_journal(Kernel& k, const std::string& comm, int cpu, int rounds,
                   int per_round) {
  auto* disk = k.New<RamDisk>(std::vector<unsigned char>(64 << 10, 0),
                              "sd" + comm.substr(comm.size() - 1));
  TaskSpec s = Spec(comm, cpu);
  s.body = [disk, rounds, per_round] {
    sector_t next = 0;
    for (int r = 0; r < rounds; r++) {
      for (int i = 0; i < per_round; i++)
        brelse(__getblk(disk->bdev(), next++ % 64, 1024));
      msleep(5);  // the commit interval
    }
  };
  k.Spawn(std::move(s));
}

void spawn_klogd(Kernel& k, int cpu, int rounds, size_t bytes) {
  TaskSpec s = Spec("klogd", cpu);
  s.body = [rounds, bytes] {
    for (int r = 0; r < rounds; r++) {
      char* skb = static_cast<char*>(kmalloc(bytes, GFP_KERNEL));
      if (skb == nullptr) return;
      std::snprintf(skb, bytes,
                    "<1>Dec 2 05:%02d:00 squashlab kernel: SQUASHFS error: "
                    "squashfs_read_data failed to read block",
                    r % 60);
      msleep(1);  // the message on its way to the socket
      kfree(skb);
    }
  };
  k.Spawn(std::move(s));
}

void spawn_reclaim(Kernel& k, inode* ino, int rounds) {
  TaskSpec s = Spec("kswapd0", -1);
  s.body = [ino, rounds] {
    for (int r = 0; r < rounds; r++)
      invalidate_mapping_pages(ino->i_mapping, 0, ~0UL);
  };
  k.Spawn(std::move(s));
}

void spawn_reread(Kernel& k, inode* ino, const FileModel* oracle,
                  const ReaderOptions& opt, int passes,
                  std::atomic<int>* running) {
  TaskSpec s = Spec(opt.comm, opt.cpu);
  if (running) running->fetch_add(1);
  s.body = [ino, oracle, opt, passes, running] {
    file* f = open_file(ino, opt.ra_pages);
    std::vector<char> buf;
    const uint64_t end = std::min<uint64_t>(opt.end, oracle->content.size());
    for (int pass = 0; pass < passes; pass++) {
      if (pass > 0) fadvise_dontneed(f, 0, 0);
      bool ok = true;
      for (uint64_t pos = opt.start; ok && pos < end; pos += opt.bs)
        ok = CheckedRead(
            f, oracle, pos,
            static_cast<size_t>(std::min<uint64_t>(opt.bs, end - pos)),
            opt.eio_allowed, buf);
      if (!ok) break;
    }
    if (running) running->fetch_sub(1);
  };
  k.Spawn(std::move(s));
}

void spawn_kcompactd(Kernel& k, const std::atomic<int>* running,
                     int max_batches, uint64_t salt) {
  const uint64_t seed = Rng::Mix(k.config().seed, salt);
  TaskSpec s = Spec("kcompactd0", -1);
  s.body = [running, max_batches, seed] {
    // compact_zone: isolate a batch of folios (COMPACT_CLUSTER_MAX at
    // most; here 8 cached folios of one mapping in index order, from one
    // drawn), migrate_pages on it, then the next batch.
    constexpr size_t kBatch = 8;
    Rng rng(seed);
    for (int batch = 0; batch < max_batches && running->load() > 0; batch++) {
      std::vector<address_space*> cached;
      for (address_space* m : page_cache_mappings())
        if (!page_cache_indexes(m).empty()) cached.push_back(m);
      if (!cached.empty()) {
        address_space* m = cached[rng.Below(cached.size())];
        const std::vector<pgoff_t> indexes = page_cache_indexes(m);
        for (size_t i = rng.Below(indexes.size()), n = 0;
             i < indexes.size() && n < kBatch; i++, n++)
          migrate_cached_folio(m, indexes[i],
                               rng.Below(2) ? MigrateOrder::kMappingFirst
                                            : MigrateOrder::kCopyFirst);
      }
      msleep(1);  // until the next wake-up
    }
  };
  k.Spawn(std::move(s));
}

}  // namespace squashlab
