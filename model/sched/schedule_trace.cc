// SPDX-License-Identifier: GPL-2.0-only
// This file implements the listings of a schedule.
#include "model/sched/schedule_trace.h"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

namespace squashlab {

bool TraceEvent::operator==(const TraceEvent& o) const {
  return step == o.step && task == o.task && cpu == o.cpu &&
         std::strcmp(op, o.op) == 0 && arg == o.arg && ts_ns == o.ts_ns &&
         preempted == o.preempted && woken == o.woken;
}

std::string ScheduleTrace::Ftrace(const std::string& header) const {
  std::string out = "# tracer: squashlab " + header + "\n#\n";
  out +=
      "#            TASK   CPU#   STEP  FUNCTION\n#               |     |      "
      " |  |\n";
  char line[200];
  for (const TraceEvent& e : events) {
    const std::string& name =
        e.task < static_cast<int>(task_names.size()) ? task_names[e.task] : "?";
    std::snprintf(
        line, sizeof line, "%16s  [%03d] %6ld: %s %llu%s%s\n", name.c_str(),
        e.cpu, e.step, e.op, static_cast<unsigned long long>(e.arg),
        e.woken ? " (woken)" : "", e.preempted ? "   <-- preempts" : "");
    out += line;
  }
  return out;
}

// Chrome's trace event format through nlohmann-json: tasks as threads
// (metadata events), operations as complete ("X") slices, the report as a
// global instant event with its text.
std::string ScheduleTrace::ChromeJson(const Report& report) const {
  using nlohmann::ordered_json;
  auto ts = [this](uint64_t v) -> ordered_json {
    if (!ts_is_ns) return v;
    return static_cast<double>(v) / 1000.0;  // microseconds
  };
  ordered_json events_json = ordered_json::array();
  for (size_t i = 0; i < task_names.size(); i++) {
    events_json.push_back({{"name", "thread_name"},
                           {"ph", "M"},
                           {"pid", 1},
                           {"tid", i},
                           {"args", {{"name", task_names[i]}}}});
  }
  uint64_t last_ts = 0;
  int last_task = 0;
  for (size_t i = 0; i < events.size(); i++) {
    const TraceEvent& e = events[i];
    uint64_t next = i + 1 < events.size() ? events[i + 1].ts_ns : e.ts_ns + 1;
    uint64_t dur = next > e.ts_ns ? next - e.ts_ns : 1;
    events_json.push_back(
        {{"name", e.op},
         {"ph", "X"},
         {"pid", 1},
         {"tid", e.task},
         {"ts", ts(e.ts_ns)},
         {"dur", ts(dur)},
         {"args", {{"step", e.step}, {"arg", e.arg}, {"cpu", e.cpu}}}});
    last_ts = e.ts_ns + dur;
    last_task = e.task;
  }
  if (!report.empty()) {
    events_json.push_back({{"name", report.title},
                           {"ph", "i"},
                           {"s", "g"},
                           {"pid", 1},
                           {"tid", last_task},
                           {"ts", ts(last_ts)},
                           {"args", {{"report", report.ToString()}}}});
  }
  events_json.push_back({{"name", "end"},
                         {"ph", "i"},
                         {"s", "g"},
                         {"pid", 1},
                         {"tid", 0},
                         {"ts", ts(last_ts)}});
  ordered_json j = {{"displayTimeUnit", "ns"},
                    {"traceEvents", std::move(events_json)}};
  return j.dump() + "\n";
}

bool WriteChromeTrace(const std::string& path, const ScheduleTrace& trace,
                      const Report& report) {
  std::ofstream f(path, std::ios::binary);
  if (!f) return false;
  f << trace.ChromeJson(report);
  return static_cast<bool>(f);
}

}  // namespace squashlab
