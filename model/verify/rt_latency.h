// This file implements the real-time latency experiment of seeds/004 in
// simulate mode: readers decompress a real image's blocks on every CPU
// while a cyclictest-like task per CPU, at the highest priority, wakes
// every period and records how late it ran. With the percpu strategy the
// whole decompression of a block is non-preemptible; with the RT local
// lock only one page of inflate output at a time delays the waker.
#ifndef SQUASHLAB_MODEL_VERIFY_RT_LATENCY_H_
#define SQUASHLAB_MODEL_VERIFY_RT_LATENCY_H_

#include <cstdint>
#include <memory>
#include <string>

#include "model/report.h"
#include "model/variants/image_model.h"

namespace squashlab {

struct RtLatencyOptions {
  std::string variant = "sync-3.13";
  std::string decomp = "percpu";
  double decompress_ns_per_byte = 60;  // a slow embedded core (gzip)
  uint64_t device_latency_ns = 200000; // per request: QSPI-flash-like
  uint64_t period_ns = 1000000;        // cyclictest -i 1000
  int ncpus = 2;
};

struct RtLatencyResult {
  uint64_t max_wakeup_latency_ns = 0;  // worst over the cyclictest tasks
  uint64_t wakeups = 0;
  uint64_t end_ns = 0;
  Report report;                       // empty when the run was clean
};

RtLatencyResult RunRtLatency(std::shared_ptr<const ImageModel> image, const RtLatencyOptions& opt);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_VERIFY_RT_LATENCY_H_
