// SPDX-License-Identifier: GPL-2.0-only
// This file implements the scenario builder. The counters wrap the read
// path and the strategy (the same functions, a counter around each call)
// through copies of their ops tables; the wrappers reach the run's
// counters through a thread-local, since ops tables hold plain function
// pointers and a run's tasks all run on the thread that runs the executor.
#include "harness/scenario_builder.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "harness/linux_mount.h"
#include "harness/mount.h"
#include "hw_emul/block_device.h"
#include "model/kernel/kernel.h"
#include "model/sched/simulate_executor.h"
#include "model/variants/decompressor.h"
#include "model/variants/read_path.h"
#include "reader/image_bytes.h"

namespace squashlab {

// What one run's setup made and what its probes saw.
struct ScenarioProbes {
  ReadPathOps read_path;  // the wrapped copies, alive for the run
  SquashfsDecompressorOps decomp;
  const ReadPathOps* inner_read_path = nullptr;
  const SquashfsDecompressorOps* inner_decomp = nullptr;
  BlockDevice* device = nullptr;  // null on the RAM disk
  CallCounters calls;
  DeviceTotals totals;
};

namespace {

thread_local ScenarioProbes* g_counting = nullptr;

void CountReadpage() {
  CallCounters& c = g_counting->calls;
  c.readpage_calls++;
  if (g_counting->device == nullptr) return;
  DeviceCounters d = g_counting->device->counters();
  uint64_t in_flight = d.bios_submitted - d.bios_completed;
  if (in_flight > 0) c.readpage_io_in_flight++;
  c.max_bios_in_flight = std::max(c.max_bios_in_flight, in_flight);
}

int WrapReadpageBlock(page* target_page, uint64_t block, int bsize) {
  CountReadpage();
  return g_counting->inner_read_path->readpage_block(target_page, block, bsize);
}
int WrapReadpages(file* filp, address_space* mapping,
                  std::vector<page*>* pages) {
  CountReadpage();
  return g_counting->inner_read_path->readpages(filp, mapping, pages);
}
void WrapReadahead(readahead_control* rac) {
  CountReadpage();
  g_counting->inner_read_path->readahead(rac);
}
int WrapDecompress(squashfs_sb_info* msblk, buffer_head** bh, int b, int offset,
                   int length, squashfs_page_actor* output) {
  int res = g_counting->inner_decomp->decompress(msblk, bh, b, offset, length,
                                                 output);
  g_counting->calls.decompress_calls++;
  if (res > 0)
    g_counting->calls.decompressed_bytes += static_cast<uint64_t>(res);
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

DeviceTotals TotalsOf(const DeviceCounters& d) {
  DeviceTotals t;
  t.requests = d.requests;
  t.merges = d.merges + d.request_merges;
  t.bytes = d.bytes;
  t.fetch = d.fetch;
  t.idle = d.idle;
  t.busy_ns = d.busy_ns;
  return t;
}

WorkqueueTotals WorkqueueOf(const SimulateExecutor& exec,
                            const CostModel& cost) {
  WorkqueueTotals w;
  for (int id = 0; id < exec.task_count(); id++) {
    if (exec.task(id).spec.context != TaskContext::kWorkqueue) continue;
    uint64_t d = exec.stats(id).max_wakeup_latency_ns + cost.work_dispatch_ns;
    w.items++;
    w.delay_total_ns += d;
    w.delay_max_ns = std::max(w.delay_max_ns, d);
  }
  return w;
}

}  // namespace

ScenarioBuilder::ScenarioBuilder(std::shared_ptr<const ImageModel> image)
    : image_(std::move(image)) {}

ScenarioBuilder& ScenarioBuilder::Name(std::string name) {
  name_ = std::move(name);
  return *this;
}
ScenarioBuilder& ScenarioBuilder::ReadPath(std::string variant,
                                           std::string decomp) {
  variant_ = std::move(variant);
  decomp_ = std::move(decomp);
  return *this;
}
ScenarioBuilder& ScenarioBuilder::Decompressor(
    const SquashfsDecompressorOps* ops) {
  decomp_ops_ = ops;
  return *this;
}
ScenarioBuilder& ScenarioBuilder::Device(std::string device) {
  device_ = std::move(device);
  return *this;
}
ScenarioBuilder& ScenarioBuilder::RamDiskLatency(uint64_t ns) {
  ram_disk_latency_ns_ = ns;
  return *this;
}
ScenarioBuilder& ScenarioBuilder::Cpus(int ncpus) {
  ncpus_ = ncpus;
  return *this;
}
ScenarioBuilder& ScenarioBuilder::PreemptRt(bool on) {
  preempt_rt_ = on;
  return *this;
}
ScenarioBuilder& ScenarioBuilder::MaxSteps(uint64_t steps) {
  max_steps_ = steps;
  return *this;
}
ScenarioBuilder& ScenarioBuilder::CountCalls() {
  count_calls_ = true;
  return *this;
}
ScenarioBuilder& ScenarioBuilder::Workload(ScenarioObserver spawn) {
  workloads_.push_back(std::move(spawn));
  return *this;
}

StatusOr<Scenario> ScenarioBuilder::Build() const { return BuildWith(nullptr); }

StatusOr<Scenario> ScenarioBuilder::BuildWith(
    std::shared_ptr<ScenarioProbes> probes) const {
  if (image_ == nullptr || image_->files.empty())
    return Status::InvalidArgument("scenario: an image without regular files");
  const ReadPathOps* rp = FindReadPath(variant_);
  const SquashfsDecompressorOps* dc =
      decomp_ops_ ? decomp_ops_ : FindDecompressor(decomp_);
  // Real kernel code mounts itself (harness/linux_mount.h).
  const LinuxModule* real = nullptr;
  std::string real_options;
  if (rp == nullptr && IsLinuxVariant(variant_)) {
    if (decomp_ops_ != nullptr)
      return Status::InvalidArgument(
          "scenario: a hand-made strategy runs under a hand-written read "
          "path only, not " +
          variant_);
    auto mod = LinuxModuleFor(variant_, decomp_, &real_options);
    if (!mod.ok()) return mod.status();
    real = *mod;
  }
  if (rp == nullptr && real == nullptr)
    return Status::InvalidArgument("scenario: unknown read path " + variant_);
  if (dc == nullptr)
    return Status::InvalidArgument("scenario: unknown strategy " + decomp_);
  std::shared_ptr<DeviceOptions> dev;
  std::shared_ptr<const ImageBytes> medium;
  if (!device_.empty()) {
    auto o = ParseDevice(device_, "");
    if (!o.ok()) return o.status();
    dev = std::make_shared<DeviceOptions>(*o);
    medium = ImageBytes::FromBuffer(image_->bytes);
  }
  const bool wrap = probes != nullptr && count_calls_;
  if (wrap) {
    probes->inner_read_path = rp;
    probes->inner_decomp = dc;
    if (rp != nullptr) probes->read_path = Wrapped(*rp);
    probes->decomp = Wrapped(*dc);
  }
  const ReadPathOps* mount_rp = wrap && rp != nullptr ? &probes->read_path : rp;
  const SquashfsDecompressorOps* mount_dc = wrap ? &probes->decomp : dc;

  Scenario sc;
  sc.name = name_;
  sc.config.ncpus = ncpus_;
  sc.config.preempt_rt = preempt_rt_;
  if (max_steps_ > 0) sc.config.max_steps = static_cast<long>(max_steps_);
  sc.config.mm_era = real ? LinuxMmEra(variant_) : rp->mm;
  sc.setup = [image = image_, workloads = workloads_, real, real_options, dev,
              medium, mount_rp, mount_dc, probes, wrap,
              latency = ram_disk_latency_ns_](Kernel& k) {
    SquashfsMount* m = nullptr;
    if (real != nullptr) {
      m = dev ? squashfs_device_only(k, medium, *dev)
              : squashfs_device_only(k, *image, {});
    } else if (dev) {
      m = squashfs_mount(k, *image, mount_rp, mount_dc, medium, *dev);
    } else {
      m = squashfs_mount(k, *image, mount_rp, mount_dc);
    }
    if (m->disk != nullptr && latency) m->disk->set_latency_ns(*latency);
    BlockDevice* device = m->device;
    if (probes != nullptr) probes->device = device;
    if (wrap) g_counting = probes.get();
    auto spawn = [&k, m, device, workloads] {
      for (const ScenarioObserver& w : workloads) w(k, m, device);
    };
    if (real != nullptr) {
      std::vector<std::string> names;  // every file: the workloads may read any
      for (const FileModel& f : image->files) names.push_back(f.name);
      SpawnLinuxMount(k, m, *image, names, real, real_options, spawn);
    } else {
      spawn();
    }
    if (probes != nullptr && device != nullptr) {
      ScenarioProbes* p = probes.get();
      k.AtQuiescence([p, device] { p->totals = TotalsOf(device->counters()); });
    }
  };
  return sc;
}

StatusOr<SimulatedRun> ScenarioBuilder::Simulate(const CostModel& cost) const {
  auto probes = std::make_shared<ScenarioProbes>();
  auto sc = BuildWith(probes);
  if (!sc.ok()) return sc.status();
  SimulateExecutor exec(cost);
  SimulatedRun run;
  run.outcome = RunScenario(*sc, exec, 1);
  g_counting = nullptr;
  if (count_calls_) run.calls = probes->calls;
  run.device = probes->totals;
  run.workqueue = WorkqueueOf(exec, cost);
  return run;
}

}  // namespace squashlab
