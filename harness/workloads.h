// SPDX-License-Identifier: GPL-2.0-only
// This file implements the workloads the scenarios run as tasks: dd with a
// block size (sequential reads to end of file), random readers, and reclaim
// pressure evicting clean pages between reads. Readers check every byte
// they get against the oracle (the reader library's decoding of the same
// file): wrong bytes are a report; EIO is a report unless a fault plan may
// have caused it.
#ifndef SQUASHLAB_HARNESS_WORKLOADS_H_
#define SQUASHLAB_HARNESS_WORKLOADS_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace squashlab {

class BlockDevice;
class Kernel;
struct inode;
struct FileModel;

// What a dd saw, for benchmarks: the virtual times of its measured span
// and its file's readahead windows.
struct DdProbe {
  // The span starts at the first read at or past this offset (from the
  // file's start when the file is shorter) and ends with the last read.
  uint64_t measure_from = 0;
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  uint64_t bytes = 0;         // read in the span
  bool done = false;          // the dd ended, at its end or at an error
  uint64_t ra_windows = 0;    // distinct (start, size) windows after a read
  uint64_t ra_max_pages = 0;  // the largest window
};

struct ReaderOptions {
  std::string comm = "dd";
  size_t bs = 4096;
  uint64_t start = 0;
  uint64_t end = ~uint64_t{0};  // clipped to the file size
  unsigned ra_pages = 32;       // the file's readahead window (0: none)
  bool eio_allowed = false;     // a fault plan is active
  int cpu = -1;
  // dd only. Each read(2) asks for bs bytes, past `end` and EOF too (what
  // dd does; the MM clips it), instead of stopping at `end`.
  bool whole_bs_reads = false;
  // Time each read(2) costs outside the page-cache read, before it: the
  // task sleeps that long, or, with `call_on_device`, the device is busy
  // that long (BlockDevice::Occupy) and the task waits for it.
  uint64_t call_ns = 0;
  BlockDevice* call_on_device = nullptr;
  DdProbe* probe = nullptr;  // filled when set
};

// dd if=FILE bs=BS skip..count: sequential reads from start to end.
void spawn_dd(Kernel& k, inode* ino, const FileModel* oracle,
              const ReaderOptions& opt);
// cyclictest -p 99 -i period_ns on `cpu`: absolute-time wake-ups, each
// one's lateness appended to *latency_ns, until every dd of `until` is done.
void spawn_cyclictest(Kernel& k, int cpu, uint64_t period_ns,
                      std::vector<const DdProbe*> until,
                      std::vector<uint64_t>* latency_ns);
// cat FILE... : each file in turn in reads of opt.bs, whole when it is at
// most 2 x `span` bytes, else its first and its last `span` bytes (start
// and end ignored); stops at the first EIO.
void spawn_cat(Kernel& k,
               const std::vector<std::pair<inode*, const FileModel*>>& files,
               uint64_t span, const ReaderOptions& opt);
// `reads` reads of opt.bs bytes at offsets drawn from the run's seed.
void spawn_random_reader(Kernel& k, inode* ino, const FileModel* oracle,
                         const ReaderOptions& opt, int reads, uint64_t salt);
// `rounds` passes of invalidate_mapping_pages over ino's page cache.
void spawn_reclaim(Kernel& k, inode* ino, int rounds);
// A reader that drops what it read with posix_fadvise(POSIX_FADV_DONTNEED)
// at page granularity : a block of the file (drawn
// from the run's seed, or its last with `last`) read, then one page of it
// dropped and read again, then its middle pages, then the whole file, each
// read checked.
void spawn_dontneed_reader(Kernel& k, inode* ino, const FileModel* oracle,
                           uint64_t block_size, const ReaderOptions& opt,
                           uint64_t salt, bool last = false);
// How a mapping task walks the pages of its file (mmap_workload.cc).
enum class MmapOrder { kSequential, kBackward, kRandom, kLastPage };
// A task that maps the file read-only (MAP_SHARED; madvise(MADV_RANDOM)
// when `madv_random`: no read-around) and loads whole pages through the
// mapping in `order`: sequential or backward over the file's first and last
// `span` bytes (the whole file when it is at most 2 x span), `count` pages
// drawn from the run's seed, or the page holding the last byte. Each load
// faults through the MM's fault path (model/mm/filemap_fault.h) and is
// checked against the oracle, the bytes past EOF of the last page against
// zero; a SIGBUS on a page of the file is a report unless a fault plan may
// cause it (then the task stops). munmap at the end.
void spawn_mmap_reader(Kernel& k, inode* ino, const FileModel* oracle,
                       MmapOrder order, bool madv_random, uint64_t span,
                       const ReaderOptions& opt, int count, uint64_t salt);
// A dd from opt.start to opt.end `passes` times, the file's page cache
// dropped (fadvise(POSIX_FADV_DONTNEED)) before each pass after the first:
// each pass reads the blocks from the device again. `running`, when given,
// counts the task while it runs.
void spawn_reread(Kernel& k, inode* ino, const FileModel* oracle,
                  const ReaderOptions& opt, int passes,
                  std::atomic<int>* running = nullptr);
// Compaction's migration of page cache folios (model/mm/migrate.h) while
// `*running` is positive, `max_batches` batches at most: each batch up to
// 8 cached folios of one mapping (drawn from those with pages: files'
// mappings and any other, such as a file system's private cache inode),
// in index order from one drawn, each migrated in one of mainline's two
// orders, also drawn; a locked or referenced folio is left.
void spawn_kcompactd(Kernel& k, const std::atomic<int>* running,
                     int max_batches, uint64_t salt);
// A journal thread of another file system on `cpu` (jbd2 committing on
// the ext4 root of the 2013 thread's machines): `rounds` commits, each
// looking up and releasing `per_round` new buffers of its own device, then
// sleeping; every few commits push each buffer of that CPU's bh LRU off
// the end (__brelse).
void spawn_journal(Kernel& k, const std::string& comm, int cpu, int rounds,
                   int per_round);
// A syslog daemon on `cpu` (the seed's klogd): each of `rounds` messages
// is a kmalloc of `bytes` (the seed's __alloc_skb asked 448: kmalloc-512)
// holding the line's text while it is sent, then kfree. On a production
// kernel its buffers come from the size classes every other allocation of
// that size shares, so a freed object of another subsystem can end up
// holding log text.
void spawn_klogd(Kernel& k, int cpu, int rounds, size_t bytes);

}  // namespace squashlab

#endif  // SQUASHLAB_HARNESS_WORKLOADS_H_
