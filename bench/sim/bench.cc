// SPDX-License-Identifier: GPL-2.0-only
// This file implements the scenario dispatch and what the scenarios share.
#include "bench/sim/bench.h"

#include <atomic>
#include <cstdio>
#include <thread>

#include "bench/sim/bench_internal.h"
#include "harness/image_model.h"

namespace squashlab {

const std::vector<std::pair<std::string, std::string>>& BenchScenarios() {
  static const std::vector<std::pair<std::string, std::string>> kAll = {
      {"phillip",
       "the 2013 thread's matrix: gzip 64K..1024K blocks x dd bs 4K..1024K, "
       "kvm-hdb"},
      {"emmc", "Chanho's dd bs=64k on emmc-hs200: MB/s and mmcqd fetch/idle"},
      {"usb", "Minchan's bs sweep 32K..288K on usb-stick, before/after"},
      {"rt-latency",
       "the 2018 RT thread's cyclictest per decompressor strategy "
       "(qspi-flash)"},
      {"blocksize",
       "throughput vs block size per compressor and variant (kvm-hdb)"},
      {"fidelity",
       "every visible figure of the 2013 thread beside the simulation, the "
       "error and the mechanism"},
  };
  return kAll;
}

StatusOr<BenchResult> RunBench(const BenchOptions& opt,
                               std::ostream* progress) {
  if (opt.scenario == "phillip") return RunPhillip(opt, progress);
  if (opt.scenario == "emmc") return RunEmmc(opt, progress);
  if (opt.scenario == "usb") return RunUsb(opt, progress);
  if (opt.scenario == "rt-latency") return RunRtLatencyBench(opt, progress);
  if (opt.scenario == "blocksize") return RunBlocksize(opt, progress);
  if (opt.scenario == "fidelity") return RunFidelity(opt, progress);
  return Status::InvalidArgument("unknown scenario '" + opt.scenario + "'");
}

std::vector<CellResult> RunCells(const std::vector<CellJob>& jobs, int threads,
                                 std::ostream* progress) {
  std::vector<CellResult> out(jobs.size());
  std::atomic<size_t> next{0}, done{0};
  auto worker = [&] {
    for (size_t i; (i = next.fetch_add(1)) < jobs.size();) {
      out[i] = RunDdCell(jobs[i].image, jobs[i].spec, jobs[i].cost);
      size_t d = done.fetch_add(1) + 1;
      if (progress != nullptr && threads == 1 &&
          (d % 50 == 0 || d == jobs.size()))
        *progress << "  " << d << "/" << jobs.size() << " cells\n"
                  << std::flush;
    }
  };
  if (threads <= 1) {
    worker();
  } else {
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; t++) pool.emplace_back(worker);
    for (auto& t : pool) t.join();
  }
  return out;
}

std::string Fixed(double v, int decimals) {
  char b[64];
  std::snprintf(b, sizeof b, "%.*f", decimals, v);
  return b;
}

std::string SizeName(uint64_t bytes) {
  if (bytes % 1024 == 0) return std::to_string(bytes / 1024) + "K";
  return std::to_string(bytes);
}

StatusOr<CpuProfile> CpuFor(const std::string& profile) {
  const CpuProfile* p = FindCpuProfile(profile);
  if (p == nullptr)
    return Status::InvalidArgument("no calibrated CPU for profile '" + profile +
                                   "' (kvm-hdb, emmc-hs200, usb-stick, nvme)");
  return *p;
}

StatusOr<ScenarioStart> StartScenario(const BenchOptions& opt,
                                      const std::string& scenario,
                                      const std::string& default_profile,
                                      ContentKind content) {
  ScenarioStart st;
  st.res.scenario = scenario;
  st.res.profile = opt.profile.empty() ? default_profile : opt.profile;
  auto cpu = CpuFor(st.res.profile);
  if (!cpu.ok()) return cpu.status();
  st.cpu = *cpu;
  st.cost = MakeCostModel(st.cpu, CommittedHostCosts(), content);
  st.res.setup.push_back(CalibrationRecord(st.cpu, st.cost));
  return st;
}

std::string CacheDir(const BenchOptions& opt) {
  return opt.cache_dir.empty() ? DefaultCacheDir() : opt.cache_dir;
}

BenchRecord CalibrationRecord(const CpuProfile& cpu, const CostModel& cost) {
  BenchRecord r = {{"profile", cpu.profile},
                   {"cpu", cpu.cpu},
                   {"ncpus", static_cast<uint64_t>(cpu.ncpus)},
                   {"slowdown", cpu.slowdown},
                   {"slowdown_source", cpu.slowdown_source},
                   {"work_dispatch_ns", cpu.work_dispatch_ns},
                   {"work_dispatch_source", cpu.dispatch_source},
                   {"memcpy_ns_per_byte", cost.memcpy_ns_per_byte}};
  for (const auto& [codec, ns] : cost.decompress_ns_per_byte_by_codec)
    r.push_back({codec + "_ns_per_byte", ns});
  return r;
}

BenchRecord CellRecord(const CellJob& job, const CellResult& r) {
  const CellCounters& c = r.c;
  const CellSpec& s = job.spec;
  return {{"variant", s.variant},
          {"decomp", s.decomp},
          {"profile", s.profile},
          {"ncpus", static_cast<uint64_t>(s.ncpus)},
          {"comp", job.image_spec.comp},
          {"content", std::string(ContentKindName(job.image_spec.content))},
          {"block_size", static_cast<uint64_t>(job.image_spec.block_size)},
          {"dd_bs", s.dd_bs},
          {"file_bytes", r.file_bytes},
          {"warmup_bytes", s.warmup_bytes},
          {"measured_bytes", r.measured_bytes},
          {"cell", r.Cell()},
          {"failure", r.failure},
          {"report", r.report},
          {"mbps", r.mbps},
          {"dd_ns", r.dd_ns},
          {"readpage_calls", c.readpage_calls},
          {"readpage_io_in_flight", c.readpage_io_in_flight},
          {"max_bios_in_flight", c.max_bios_in_flight},
          {"decompress_calls", c.decompress_calls},
          {"decompressed_bytes", c.decompressed_bytes},
          {"ra_windows", c.ra_windows},
          {"ra_max_pages", c.ra_max_pages},
          {"requests", c.requests},
          {"merges", c.merges},
          {"device_bytes", c.device_bytes},
          {"fetch", c.fetch},
          {"idle", c.idle},
          {"device_busy_ns", c.busy_ns},
          {"device_idle_ns", c.device_idle_ns},
          {"work_items", c.work_items},
          {"work_delay_total_ns", c.work_delay_total_ns},
          {"work_delay_max_ns", c.work_delay_max_ns}};
}

}  // namespace squashlab
