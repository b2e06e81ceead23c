// SPDX-License-Identifier: GPL-2.0-only
// This file implements CostModel: what each operation costs in the simulate
// executor's virtual time. Defaults are round figures for a ~1 GHz ARM core
// (the eMMC board of the 2013 thread); hw_emul/ and the benchmarks set their
// own.
#ifndef SQUASHLAB_MODEL_SCHED_COST_MODEL_H_
#define SQUASHLAB_MODEL_SCHED_COST_MODEL_H_

#include <cstdint>
#include <map>
#include <string>

#include "model/sched/executor.h"

namespace squashlab {

struct CostModel {
  uint64_t api_call_ns = 50;           // every scheduling point
  uint64_t page_cache_op_ns = 300;     // radix-tree lookup/insert
  double memcpy_ns_per_byte = 0.5;     // ~2 GB/s
  double decompress_ns_per_byte = 10;  // codecs not listed below
  std::map<std::string, double> decompress_ns_per_byte_by_codec = {
      {"gzip", 10.0}, {"zstd", 4.0}, {"lz4", 1.0}, {"xz", 50.0}, {"lzo", 3.0}};
  uint64_t work_dispatch_ns = 5000;  // queue_work -> kworker running
  uint64_t irq_entry_ns = 3000;
  uint64_t context_switch_ns = 2000;
  uint64_t timeslice_ns = 4000000;  // round robin among equal priorities
  // A fully preemptible kernel (PREEMPT_RT): code outside preempt-off and
  // irqs-off sections can be preempted at any instruction, so a charge of a
  // preemptible task is cut into slices this long, each a chance for a
  // waking task to take the CPU (the simulation's time resolution, not a
  // cost). 0: a charge runs to the next scheduling point, as on a
  // voluntary-preemption kernel.
  uint64_t preemptible_charge_slice_ns = 0;

  uint64_t Cost(CostKind kind, uint64_t units, const char* codec) const;
};

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_SCHED_COST_MODEL_H_
