// SPDX-License-Identifier: GPL-2.0-only
// This file implements one dd cell. The read path and the decompressor
// strategy are wrapped (same functions, a counter around each call) through
// copies of their ops tables; the wrappers reach the run's counters through
// thread-locals, since ops tables hold plain function pointers and a run's
// tasks all run on the thread that runs the executor.
#include "bench/sim/dd_cell.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <set>
#include <utility>
#include <vector>

#include "harness/image_model.h"
#include "harness/linux_mount.h"
#include "harness/mount.h"
#include "hw_emul/block_device.h"
#include "model/kernel/kernel.h"
#include "model/kernel/scenario.h"
#include "model/mm/file_read.h"
#include "model/mm/filemap_read.h"
#include "model/sched/simulate_executor.h"
#include "model/variants/decompressor.h"
#include "model/variants/read_path.h"
#include "reader/image_bytes.h"

namespace squashlab {
namespace {

struct RunState {
  const ReadPathOps* rp = nullptr;
  const SquashfsDecompressorOps* dc = nullptr;
  BlockDevice* dev = nullptr;
  CellCounters* c = nullptr;
};
thread_local RunState g_run;

void CountReadpage() {
  CellCounters& c = *g_run.c;
  c.readpage_calls++;
  DeviceCounters d = g_run.dev->counters();
  uint64_t in_flight = d.bios_submitted - d.bios_completed;
  if (in_flight > 0) c.readpage_io_in_flight++;
  c.max_bios_in_flight = std::max(c.max_bios_in_flight, in_flight);
}

int WrapReadpageBlock(page* target_page, uint64_t block, int bsize) {
  CountReadpage();
  return g_run.rp->readpage_block(target_page, block, bsize);
}
int WrapReadpages(file* filp, address_space* mapping,
                  std::vector<page*>* pages) {
  CountReadpage();
  return g_run.rp->readpages(filp, mapping, pages);
}
void WrapReadahead(readahead_control* rac) {
  CountReadpage();
  g_run.rp->readahead(rac);
}
int WrapDecompress(squashfs_sb_info* msblk, buffer_head** bh, int b, int offset,
                   int length, squashfs_page_actor* output) {
  int res = g_run.dc->decompress(msblk, bh, b, offset, length, output);
  g_run.c->decompress_calls++;
  if (res > 0) g_run.c->decompressed_bytes += static_cast<uint64_t>(res);
  return res;
}

ReadPathOps Wrapped(const ReadPathOps& rp) {
  ReadPathOps w = rp;
  if (rp.readpage_block) w.readpage_block = WrapReadpageBlock;
  if (rp.readpages) w.readpages = WrapReadpages;
  if (rp.readahead) w.readahead = WrapReadahead;
  return w;
}

SquashfsDecompressorOps Wrapped(const SquashfsDecompressorOps& dc) {
  SquashfsDecompressorOps w = dc;
  w.decompress = WrapDecompress;
  return w;
}

std::string FailureName(ReportKind kind) {
  switch (kind) {
    case ReportKind::kHungTask:
    case ReportKind::kQuiescence:
      return "hang";
    case ReportKind::kWrongData:
      return "wrong data";
    case ReportKind::kStepLimit:
      return "livelock";
    case ReportKind::kLeak:
      return "leak";
    default:
      return "oops";
  }
}

const FileModel* Largest(const ImageModel& img) {
  const FileModel* best = nullptr;
  for (const FileModel& f : img.files)
    if (best == nullptr || f.content.size() > best->content.size()) best = &f;
  return best;
}

struct DdTimes {
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  uint64_t bytes = 0;  // read in the measured span
  bool done = false;
};

uint64_t RoundUp(uint64_t v, uint64_t unit) {
  return unit == 0 ? v : (v + unit - 1) / unit * unit;
}

// dd: sequential reads of bs bytes, each checked against the oracle, with
// the readahead window sampled after each read.
void SpawnDd(Kernel& k, inode* ino, const FileModel* oracle,
             const CellSpec& spec, BlockDevice* dev, DdTimes* t,
             CellCounters* c) {
  TaskSpec s;
  s.name = "dd";
  s.body = [ino, oracle, bs = spec.dd_bs, ra_pages = spec.ra_pages,
            per_call = spec.read_syscall_ns,
            on_device = spec.read_syscall_on_device, dev,
            warmup = spec.measure_bytes ? spec.warmup_bytes : 0,
            measure = spec.measure_bytes, t, c] {
    Kernel& kk = Kernel::Current();
    file* f = open_file(ino, ra_pages);
    std::vector<char> buf(bs);
    std::set<std::pair<unsigned long, unsigned>> windows;
    uint64_t size = oracle->content.size();
    if (measure > 0) size = std::min(size, warmup + measure);
    uint64_t from = warmup < size ? warmup : 0;  // a file shorter than it
    int64_t pos = 0;
    bool started = false;
    while (static_cast<uint64_t>(pos) < size) {
      uint64_t at = static_cast<uint64_t>(pos);
      if (!started && at >= from) {
        t->start_ns = kk.NowNs();
        t->bytes = size - at;
        started = true;
      }
      size_t want = static_cast<size_t>(
          std::min<uint64_t>(bs, oracle->content.size() - at));
      if (per_call > 0 && on_device) {
        uint64_t end = dev->Occupy(kk.NowNs(), per_call);
        kk.Delay(end - kk.NowNs());
      } else if (per_call > 0) {
        kk.Delay(per_call);
      }
      long got = mm_file_read(f, buf.data(), bs, &pos);
      if (got != static_cast<long>(want) ||
          std::memcmp(buf.data(), oracle->content.data() + at, want) != 0) {
        char body[160];
        std::snprintf(body, sizeof body,
                      "read at %llu returned %ld of %zu bytes, or wrong bytes",
                      static_cast<unsigned long long>(at), got, want);
        kk.Bug(ReportKind::kWrongData, "squashlab: dd read returned wrong data",
               body);
      }
      if (f->f_ra.size > 0) windows.insert({f->f_ra.start, f->f_ra.size});
      c->ra_max_pages = std::max<uint64_t>(c->ra_max_pages, f->f_ra.size);
    }
    t->end_ns = kk.NowNs();
    t->done = true;
    c->ra_windows = windows.size();
  };
  k.Spawn(std::move(s));
}

}  // namespace

void SteadyStateSpan(CellSpec* spec, uint32_t block_size) {
  uint64_t b = block_size, bs = spec->dd_bs;
  spec->warmup_bytes =
      RoundUp(std::max({2 * b, 2 * bs, uint64_t{512} << 10}), bs);
  spec->measure_bytes =
      RoundUp(std::max({4 * b, 4 * bs, uint64_t{2} << 20}), bs);
}

std::string CellResult::Cell() const {
  if (!failure.empty()) return failure;
  char b[32];
  std::snprintf(b, sizeof b, "%.2f", mbps);
  return b;
}

CellResult RunDdCell(std::shared_ptr<const ImageModel> image,
                     const CellSpec& spec, const CostModel& cost) {
  CellResult res;
  const ReadPathOps* rp = FindReadPath(spec.variant);
  const SquashfsDecompressorOps* dc = FindDecompressor(spec.decomp);
  auto dev_opt = MakeDeviceOptions(spec.profile, "", 1024);
  const FileModel* oracle = Largest(*image);
  // Real kernel code mounts itself (harness/linux_mount.h).
  const LinuxModule* real = nullptr;
  std::string real_options;
  if (rp == nullptr && IsLinuxVariant(spec.variant)) {
    auto mod = LinuxModuleFor(spec.variant, spec.decomp, &real_options);
    if (mod.ok()) real = *mod;
  }
  if ((rp == nullptr && real == nullptr) || dc == nullptr || !dev_opt.ok() ||
      oracle == nullptr) {
    res.failure = "error";
    res.report =
        "unknown variant, decompressor or profile, or an image without files";
    return res;
  }
  res.file_bytes = oracle->content.size();
  ReadPathOps rp_wrapped = rp ? Wrapped(*rp) : ReadPathOps{};
  SquashfsDecompressorOps dc_wrapped = Wrapped(*dc);
  auto medium = ImageBytes::FromBuffer(image->bytes);
  DdTimes times;
  DeviceCounters dev_counters;
  g_run = RunState{rp, dc, nullptr, &res.c};

  Scenario sc;
  sc.name = "bench-dd";
  sc.config.ncpus = spec.ncpus;
  sc.config.preempt_rt = spec.decomp == "percpu-locallock";
  sc.config.max_steps = 50000000;
  sc.config.mm_era = real ? LinuxMmEra(spec.variant) : rp->mm;
  sc.setup = [&](Kernel& k) {
    SquashfsMount* m = real ? squashfs_device_only(k, medium, *dev_opt)
                            : squashfs_mount(k, *image, &rp_wrapped,
                                             &dc_wrapped, medium, *dev_opt);
    BlockDevice* dev = m->device;
    g_run.dev = dev;
    if (real) {
      std::vector<std::string> names;  // every file, as the figures were
      for (const FileModel& f : image->files) names.push_back(f.name);
      SpawnLinuxMount(k, m, *image, names, real, real_options,
                      [&k, m, dev, &oracle, &spec, &times, &res] {
                        SpawnDd(k, m->Find(oracle->name), oracle, spec, dev,
                                &times, &res.c);
                      });
    } else {
      SpawnDd(k, m->Find(oracle->name), oracle, spec, dev, &times, &res.c);
    }
    k.AtQuiescence([dev, &dev_counters] { dev_counters = dev->counters(); });
  };
  SimulateExecutor exec(cost);
  ScenarioOutcome out = RunScenario(sc, exec, 1);
  g_run = RunState{};
  if (!out.ok() || !times.done) {
    res.failure = FailureName(out.report.kind);
    res.report = out.report.title;
    return res;
  }
  res.dd_ns = times.end_ns - times.start_ns;
  res.measured_bytes = times.bytes;
  res.mbps = res.dd_ns == 0
                 ? 0
                 : static_cast<double>(res.measured_bytes) * 1e3 / res.dd_ns;
  CellCounters& c = res.c;
  c.requests = dev_counters.requests;
  c.merges = dev_counters.merges + dev_counters.request_merges;
  c.device_bytes = dev_counters.bytes;
  c.fetch = dev_counters.fetch;
  c.idle = dev_counters.idle;
  c.busy_ns = dev_counters.busy_ns;
  c.device_idle_ns = res.dd_ns > c.busy_ns ? res.dd_ns - c.busy_ns : 0;
  for (int id = 0; id < exec.task_count(); id++) {
    if (exec.task(id).spec.context != TaskContext::kWorkqueue) continue;
    uint64_t d = exec.stats(id).max_wakeup_latency_ns + cost.work_dispatch_ns;
    c.work_items++;
    c.work_delay_total_ns += d;
    c.work_delay_max_ns = std::max(c.work_delay_max_ns, d);
  }
  return res;
}

}  // namespace squashlab
