// SPDX-License-Identifier: GPL-2.0-only
// This file implements the `fidelity` rows of the 2018 RT thread (seeds/004):
// cyclictest's worst wake-up with the percpu decompressor (~8000 us) and with
// its RT local lock (~80 us), beside RunRtLatency's prediction on the
// qspi-flash profile, on xz: the thread does not name its compressor, and
// xz is the one argued for its platform (harness/README.md, "The codec");
// `bench rt-latency` shows gzip beside it for contrast. Nothing here is
// fitted to the seed.
#include <string>
#include <vector>

#include "bench/sim/bench_image.h"
#include "bench/sim/bench_internal.h"
#include "bench/sim/fidelity.h"
#include "bench/sim/rt_latency.h"

namespace squashlab {

Status AddRtRows(const BenchOptions& opt, std::vector<FidelityRow>* rows) {
  struct Figure {
    const char* decomp;
    const char* id;
    const char* words;
    double us;
    const char* mechanism;
  };
  const Figure figures[] = {
      {"percpu", "rt-percpu",
       "QSPI flash, cyclictest while htop starts: \"a latency of ~8000us\" "
       "(percpu decompressor)",
       8000,
       "percpu: get_cpu_ptr keeps preemption off for a whole block's inflate; "
       "the waker waits for it (RunRtLatency, bench/sim/rt_latency.h)"},
      {"percpu-locallock", "rt-locallock",
       "with the local lock: \"The max latency stays at 80us\"", 80,
       "RT local lock: the inflate is preemptible anywhere on PREEMPT_RT "
       "(kmap_atomic only disables migration), so the waker waits for a "
       "context switch only; the seed's 80 us is the board's own floor "
       "(hard irqs, cache misses), which the model does not have"},
  };
  for (const char* comp : {"xz"}) {
    BenchImageSpec is;
    is.file_size = opt.small ? 512 << 10 : 2 << 20;
    is.files = 2;
    is.comp = comp;
    auto img = LoadBenchImage(is, CacheDir(opt));
    if (!img.ok()) return img.status();
    for (const Figure& f : figures) {
      RtLatencyOptions o;
      o.decomp = f.decomp;
      RtLatencyResult r = RunRtLatency(*img, o);
      if (!r.report.empty())
        return Status::IoError(std::string("rt-latency ") + f.decomp +
                               " failed: " + r.report.title);
      FidelityRow row;
      row.id = std::string(f.id) + "-" + comp;
      row.source = "2018 RT thread (seed 004), " + std::string(comp) +
                   " image (the thread names no codec; xz argued)";
      row.thread = f.words;
      row.lo = row.hi = f.us;
      row.pred_lo = row.pred_hi = r.max_wakeup_latency_ns / 1e3;
      row.unit = "us";
      row.role = "predicted";
      row.mechanism = f.mechanism;
      rows->push_back(std::move(row));
    }
  }
  return Status::Ok();
}

}  // namespace squashlab
