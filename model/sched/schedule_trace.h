// SPDX-License-Identifier: GPL-2.0-only
// This file implements ScheduleTrace: the executed operations of one run, in
// order, printable as an ftrace-like listing and as Chrome trace JSON
// (tasks as threads, operations as slices, the report as an instant event;
// viewable in Perfetto).
#ifndef SQUASHLAB_MODEL_SCHED_SCHEDULE_TRACE_H_
#define SQUASHLAB_MODEL_SCHED_SCHEDULE_TRACE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "model/base/report.h"

namespace squashlab {

struct TraceEvent {
  long step = 0;
  int task = 0;
  int cpu = 0;
  const char* op = "";     // a string literal of the API ("lock_page")
  uint64_t arg = 0;        // pfn, block number, bio id, ...
  uint64_t ts_ns = 0;      // virtual time (simulate) or the step
  bool preempted = false;  // this task was chosen over a runnable current one
  bool woken = false;      // resumed after sleeping in `op`

  bool operator==(const TraceEvent& o) const;
};

struct ScheduleTrace {
  std::vector<TraceEvent> events;
  std::vector<std::string> task_names;  // by task id: "dd:1"
  // ts_ns holds nanoseconds of virtual time (simulate), not steps (explore);
  // Chrome's "ts" is in microseconds, so those are scaled when written.
  bool ts_is_ns = false;

  bool operator==(const ScheduleTrace& o) const {
    return events == o.events && task_names == o.task_names;
  }
  // "          dd:1  [000]    12: lock_page 3" lines with a header.
  std::string Ftrace(const std::string& header) const;
  std::string ChromeJson(const Report& report) const;
};

// Writes the Chrome trace JSON of `trace` to `path`; false on I/O failure.
bool WriteChromeTrace(const std::string& path, const ScheduleTrace& trace,
                      const Report& report);

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_SCHED_SCHEDULE_TRACE_H_
