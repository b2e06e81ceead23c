// SPDX-License-Identifier: GPL-2.0-only
// This file implements the cost of an operation in virtual nanoseconds.
#include "model/sched/cost_model.h"

namespace squashlab {

uint64_t CostModel::Cost(CostKind kind, uint64_t units,
                         const char* codec) const {
  switch (kind) {
    case CostKind::kApiCall:
      return api_call_ns * units;
    case CostKind::kPageCacheOp:
      return page_cache_op_ns * units;
    case CostKind::kMemcpyByte:
      return static_cast<uint64_t>(memcpy_ns_per_byte * units);
    case CostKind::kDecompressByte: {
      double per = decompress_ns_per_byte;
      if (codec != nullptr) {
        auto it = decompress_ns_per_byte_by_codec.find(codec);
        if (it != decompress_ns_per_byte_by_codec.end()) per = it->second;
      }
      return static_cast<uint64_t>(per * units);
    }
    case CostKind::kWorkDispatch:
      return work_dispatch_ns * units;
    case CostKind::kIrqEntry:
      return irq_entry_ns * units;
    case CostKind::kCompute:
      return units;
  }
  return 0;
}

}  // namespace squashlab
