// This file implements the simulate-mode latency experiment.
#include "model/verify/rt_latency.h"

#include <algorithm>
#include <atomic>

#include "model/kernel.h"
#include "model/mm/filemap_read.h"
#include "model/scenario.h"
#include "model/simulate_executor.h"
#include "model/variants/decompressor.h"
#include "model/variants/mount.h"
#include "model/variants/read_path.h"

namespace squashlab {

RtLatencyResult RunRtLatency(std::shared_ptr<const ImageModel> image, const RtLatencyOptions& opt) {
  RtLatencyResult res;
  const ReadPathOps* rp = FindReadPath(opt.variant);
  const SquashfsDecompressorOps* dc = FindDecompressor(opt.decomp);
  if (rp == nullptr || dc == nullptr || image->files.empty()) {
    res.report.kind = ReportKind::kAssertion;
    res.report.title = "rt_latency: unknown variant, strategy or empty image";
    return res;
  }
  CostModel cost;
  for (auto& [codec, ns] : cost.decompress_ns_per_byte_by_codec) ns = opt.decompress_ns_per_byte;
  cost.decompress_ns_per_byte = opt.decompress_ns_per_byte;
  SimulateExecutor exec(cost);
  KernelConfig config;
  config.ncpus = opt.ncpus;
  config.preempt_rt = true;  // the RT kernel of seeds/004
  config.max_steps = 5000000;
  std::vector<int> cyclic_ids;
  auto readers_left = std::make_shared<std::atomic<int>>(0);
  Scenario sc{"rt_latency", config, [&, readers_left](Kernel& k) {
    SquashfsMount* m = squashfs_mount(k, *image, rp, dc);
    m->disk->set_latency_ns(opt.device_latency_ns);
    // The largest files, one dd per CPU.
    std::vector<const FileModel*> files;
    for (const auto& f : image->files) files.push_back(&f);
    std::sort(files.begin(), files.end(), [](const FileModel* a, const FileModel* b) {
      return a->content.size() > b->content.size();
    });
    for (int cpu = 0; cpu < opt.ncpus; cpu++) {
      const FileModel* f = files[static_cast<size_t>(cpu) % files.size()];
      inode* ino = m->Find(f->name);
      readers_left->fetch_add(1);
      TaskSpec s;
      s.name = "htop-" + std::to_string(cpu);
      s.cpu = cpu;
      s.body = [ino, f, readers_left, cpu] {
        // dd bs=64k over the file, then the count of readers still going drops.
        (void)cpu;
        std::vector<char> buf(65536);
        file* filp = open_file(ino);
        int64_t pos = 0;
        while (static_cast<uint64_t>(pos) < f->content.size()) {
          if (generic_file_read(filp, buf.data(), buf.size(), &pos) <= 0) break;
        }
        readers_left->fetch_sub(1);
      };
      k.Spawn(std::move(s));
    }
    for (int cpu = 0; cpu < opt.ncpus; cpu++) {
      TaskSpec s;
      s.name = "cyclictest-" + std::to_string(cpu);
      s.cpu = cpu;
      s.prio = 99;
      uint64_t period = opt.period_ns;
      s.body = [readers_left, period] {
        Kernel& kk = Kernel::Current();
        while (readers_left->load() > 0) {
          kk.exec().Delay(period);
          model_point("cyclictest");
        }
      };
      cyclic_ids.push_back(k.Spawn(std::move(s))->id);
    }
  }};
  ScenarioOutcome out = RunScenario(sc, exec, 1);
  res.report = out.report;
  res.end_ns = out.run.end_ns;
  for (int id : cyclic_ids) {
    res.max_wakeup_latency_ns = std::max(res.max_wakeup_latency_ns, exec.stats(id).max_wakeup_latency_ns);
    res.wakeups += exec.stats(id).wakeups;
  }
  return res;
}

}  // namespace squashlab
