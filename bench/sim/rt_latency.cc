// SPDX-License-Identifier: GPL-2.0-only
// This file implements the simulate-mode latency experiment.
#include "bench/sim/rt_latency.h"

#include <algorithm>
#include <atomic>
#include <optional>

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
#include "reader/superblock.h"

namespace squashlab {
namespace {

RtLatencyResult Fail(const std::string& why) {
  RtLatencyResult res;
  res.report.kind = ReportKind::kAssertion;
  res.report.title = "rt_latency: " + why;
  return res;
}

// What the cyclictest tasks measured.
struct Samples {
  std::vector<uint64_t> latency_ns;
  std::atomic<int> readers_left{0};
};

// dd bs=64k over the file (htop's binary being read in the seed).
void SpawnReader(Kernel& k, SquashfsMount* m, const FileModel* f, int cpu,
                 Samples* s) {
  inode* ino = m->Find(f->name);
  s->readers_left.fetch_add(1);
  TaskSpec t;
  t.name = "htop-" + std::to_string(cpu);
  t.cpu = cpu;
  t.body = [ino, f, s] {
    std::vector<char> buf(65536);
    file* filp = open_file(ino);
    int64_t pos = 0;
    while (static_cast<uint64_t>(pos) < f->content.size())
      if (mm_file_read(filp, buf.data(), buf.size(), &pos) <= 0) break;
    s->readers_left.fetch_sub(1);
  };
  k.Spawn(std::move(t));
}

// cyclictest -p 99 -i period: absolute-time wake-ups while readers run.
void SpawnCyclictest(Kernel& k, int cpu, uint64_t period, Samples* s) {
  TaskSpec t;
  t.name = "cyclictest-" + std::to_string(cpu);
  t.cpu = cpu;
  t.prio = 99;
  t.body = [period, s] {
    Kernel& ex = Kernel::Current();
    uint64_t next = ex.NowNs();
    while (s->readers_left.load() > 0) {
      next += period;
      uint64_t now = ex.NowNs();
      ex.Delay(next > now ? next - now : 0);
      model_point("cyclictest");
      s->latency_ns.push_back(ex.NowNs() - next);
    }
  };
  k.Spawn(std::move(t));
}

}  // namespace

double HostDecompressNsPerByte(const std::string& codec) {
  double mb_per_s = 320;  // gzip
  if (codec == "zstd")
    mb_per_s = 1000;
  else if (codec == "lz4" || codec == "lzo")
    mb_per_s = 3800;
  else if (codec == "xz" || codec == "lzma")
    mb_per_s = 60;
  return 1000.0 / mb_per_s;
}

RtLatencyResult RunRtLatency(std::shared_ptr<const ImageModel> image,
                             const RtLatencyOptions& opt) {
  const ReadPathOps* rp = FindReadPath(opt.variant);
  const SquashfsDecompressorOps* dc =
      opt.decomp_ops ? opt.decomp_ops : FindDecompressor(opt.decomp);
  if (rp == nullptr || dc == nullptr)
    return Fail("unknown variant or strategy");
  if (image->files.empty()) return Fail("the image has no regular file");
  std::optional<DeviceOptions> dev;
  if (!opt.device.empty()) {
    auto o = MakeDeviceOptions(
        opt.device.substr(0, opt.device.find(',')), "",
        opt.device.find("bs=512") != std::string::npos    ? 512
        : opt.device.find("bs=4096") != std::string::npos ? 4096
                                                          : 1024);
    if (!o.ok()) return Fail(o.status().ToString());
    dev = *o;
  }
  RtLatencyResult res;
  res.codec = CompressorName(image->compressor);
  res.decompress_ns_per_byte =
      opt.decompress_ns_per_byte > 0
          ? opt.decompress_ns_per_byte
          : HostDecompressNsPerByte(res.codec) * opt.cpu_ratio;
  CostModel cost;
  for (auto& [codec, ns] : cost.decompress_ns_per_byte_by_codec)
    ns = res.decompress_ns_per_byte;
  cost.decompress_ns_per_byte = res.decompress_ns_per_byte;
  // PREEMPT_RT: preemptible code is preemptible anywhere (1 us resolution).
  cost.preemptible_charge_slice_ns = 1000;
  SimulateExecutor exec(cost);
  KernelConfig config;
  config.ncpus = opt.ncpus;
  config.preempt_rt = true;  // the RT kernel of the 2018 RT thread
  config.max_steps = 5000000;
  auto samples = std::make_shared<Samples>();
  std::shared_ptr<const ImageBytes> bytes =
      dev ? ImageBytes::FromBuffer(image->bytes) : nullptr;
  Scenario sc{"rt_latency", config, [&, samples](Kernel& k) {
                SquashfsMount* m = nullptr;
                if (dev) {
                  m = squashfs_mount(k, *image, rp, dc, bytes, *dev);
                } else {
                  m = squashfs_mount(k, *image, rp, dc);
                  m->disk->set_latency_ns(opt.ram_disk_latency_ns);
                }
                // The largest files, one reader per CPU.
                std::vector<const FileModel*> files;
                for (const auto& f : image->files) files.push_back(&f);
                std::stable_sort(files.begin(), files.end(),
                                 [](const FileModel* a, const FileModel* b) {
                                   return a->content.size() > b->content.size();
                                 });
                for (int cpu = 0; cpu < opt.ncpus; cpu++)
                  SpawnReader(k, m,
                              files[static_cast<size_t>(cpu) % files.size()],
                              cpu, samples.get());
                for (int cpu = 0; cpu < opt.ncpus; cpu++)
                  SpawnCyclictest(k, cpu, opt.period_ns, samples.get());
              }};
  ScenarioOutcome out = RunScenario(sc, exec, 1);
  res.report = out.report;
  res.end_ns = out.run.end_ns;
  res.bucket_ns = std::max<uint64_t>(1, opt.bucket_ns);
  for (uint64_t l : samples->latency_ns) {
    res.max_wakeup_latency_ns = std::max(res.max_wakeup_latency_ns, l);
    size_t b = static_cast<size_t>(l / res.bucket_ns);
    if (res.histogram.size() <= b) res.histogram.resize(b + 1);
    res.histogram[b]++;
  }
  res.wakeups = samples->latency_ns.size();
  return res;
}

}  // namespace squashlab
