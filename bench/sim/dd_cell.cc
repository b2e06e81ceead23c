// SPDX-License-Identifier: GPL-2.0-only
// This file implements one dd cell: a scenario of the harness's builder
// (harness/scenario_builder.h) with the read path's calls counted, one
// timed dd (harness/workloads.h) and the simulate executor.
#include "bench/sim/dd_cell.h"

#include <algorithm>
#include <cstdio>
#include <memory>

#include "harness/image_model.h"
#include "harness/mount.h"
#include "harness/workloads.h"

namespace squashlab {
namespace {

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

uint64_t RoundUp(uint64_t v, uint64_t unit) {
  return unit == 0 ? v : (v + unit - 1) / unit * unit;
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
  const FileModel* oracle = Largest(*image);
  if (oracle == nullptr) {
    res.failure = "error";
    res.report = "an image without files";
    return res;
  }
  res.file_bytes = oracle->content.size();
  auto probe = std::make_shared<DdProbe>();
  ScenarioBuilder b(image);
  b.Name("bench-dd")
      .ReadPath(spec.variant, spec.decomp)
      .Device(spec.profile)
      .Cpus(spec.ncpus)
      .PreemptRt(spec.decomp == "percpu-locallock")
      .MaxSteps(50000000)
      .CountCalls()
      .Workload(
          [oracle, spec, probe](Kernel& k, SquashfsMount* m, BlockDevice* dev) {
            *probe = DdProbe{};
            ReaderOptions o;
            o.bs = spec.dd_bs;
            o.ra_pages = spec.ra_pages;
            o.whole_bs_reads = true;
            o.call_ns = spec.read_syscall_ns;
            if (spec.read_syscall_on_device) o.call_on_device = dev;
            if (spec.measure_bytes > 0) {
              o.end = spec.warmup_bytes + spec.measure_bytes;
              probe->measure_from = spec.warmup_bytes;
            }
            o.probe = probe.get();
            spawn_dd(k, m->Find(oracle->name), oracle, o);
          });
  auto run = b.Simulate(cost);
  if (!run.ok()) {
    res.failure = "error";
    res.report = run.status().ToString();
    return res;
  }
  if (!run->ok() || !probe->done) {
    res.failure = FailureName(run->outcome.report.kind);
    res.report = run->outcome.report.title;
    return res;
  }
  res.dd_ns = probe->end_ns - probe->start_ns;
  res.measured_bytes = probe->bytes;
  res.mbps = res.dd_ns == 0
                 ? 0
                 : static_cast<double>(res.measured_bytes) * 1e3 / res.dd_ns;
  CellCounters& c = res.c;
  static_cast<CallCounters&>(c) = run->calls;
  c.ra_windows = probe->ra_windows;
  c.ra_max_pages = probe->ra_max_pages;
  c.requests = run->device.requests;
  c.merges = run->device.merges;
  c.device_bytes = run->device.bytes;
  c.fetch = run->device.fetch;
  c.idle = run->device.idle;
  c.busy_ns = run->device.busy_ns;
  c.device_idle_ns = res.dd_ns > c.busy_ns ? res.dd_ns - c.busy_ns : 0;
  c.work_items = run->workqueue.items;
  c.work_delay_total_ns = run->workqueue.delay_total_ns;
  c.work_delay_max_ns = run->workqueue.delay_max_ns;
  return res;
}

}  // namespace squashlab
