// SPDX-License-Identifier: GPL-2.0-only
// This file implements the simulate-mode latency experiment.
#include "bench/sim/rt_latency.h"

#include <algorithm>
#include <memory>

#include "harness/mount.h"
#include "harness/workloads.h"
#include "reader/superblock.h"

namespace squashlab {
namespace {

RtLatencyResult Fail(const std::string& why) {
  RtLatencyResult res;
  res.report.kind = ReportKind::kAssertion;
  res.report.title = "rt_latency: " + why;
  return res;
}

// What the readers and the cyclictest tasks of one run saw.
struct Samples {
  std::vector<DdProbe> readers;
  std::vector<uint64_t> latency_ns;
};

// On each CPU a dd bs=64k over one of the largest files (htop's binary
// being read in the seed), and cyclictest -p 99 -i period until they end.
void SpawnTasks(Kernel& k, SquashfsMount* m, const ImageModel& image,
                const RtLatencyOptions& opt, Samples* s) {
  std::vector<const FileModel*> files;
  for (const auto& f : image.files) files.push_back(&f);
  std::stable_sort(files.begin(), files.end(),
                   [](const FileModel* a, const FileModel* b) {
                     return a->content.size() > b->content.size();
                   });
  *s = Samples{};
  s->readers.resize(static_cast<size_t>(opt.ncpus));
  std::vector<const DdProbe*> readers;
  for (int cpu = 0; cpu < opt.ncpus; cpu++) {
    const FileModel* f = files[static_cast<size_t>(cpu) % files.size()];
    ReaderOptions o;
    o.comm = "htop-" + std::to_string(cpu);
    o.cpu = cpu;
    o.bs = 65536;
    o.whole_bs_reads = true;
    o.probe = &s->readers[static_cast<size_t>(cpu)];
    readers.push_back(o.probe);
    spawn_dd(k, m->Find(f->name), f, o);
  }
  for (int cpu = 0; cpu < opt.ncpus; cpu++)
    spawn_cyclictest(k, cpu, opt.period_ns, readers, &s->latency_ns);
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
  if (image->files.empty()) return Fail("the image has no regular file");
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
  auto samples = std::make_shared<Samples>();
  ScenarioBuilder b(image);
  b.Name("rt_latency")
      .ReadPath(opt.variant, opt.decomp)
      .Cpus(opt.ncpus)
      .PreemptRt(true)  // the RT kernel of the 2018 RT thread
      .MaxSteps(5000000)
      .Workload(
          [image, opt, samples](Kernel& k, SquashfsMount* m, BlockDevice*) {
            SpawnTasks(k, m, *image, opt, samples.get());
          });
  if (opt.decomp_ops != nullptr) b.Decompressor(opt.decomp_ops);
  if (opt.device.empty())
    b.RamDiskLatency(opt.ram_disk_latency_ns);
  else
    b.Device(opt.device);
  auto run = b.Simulate(cost);
  if (!run.ok()) return Fail(run.status().ToString());
  res.report = run->outcome.report;
  res.end_ns = run->outcome.run.end_ns;
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
