// This file implements the listings of a schedule.
#include "model/sched/schedule_trace.h"

#include <cstdio>
#include <cstring>
#include <fstream>

namespace squashlab {
namespace {

std::string JsonEscape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\', o += c;
    else if (c == '\n') o += "\\n";
    else if (static_cast<unsigned char>(c) < 0x20) o += ' ';
    else o += c;
  }
  return o;
}

}  // namespace

bool TraceEvent::operator==(const TraceEvent& o) const {
  return step == o.step && task == o.task && cpu == o.cpu && std::strcmp(op, o.op) == 0 &&
         arg == o.arg && ts_ns == o.ts_ns && preempted == o.preempted && woken == o.woken;
}

std::string ScheduleTrace::Ftrace(const std::string& header) const {
  std::string out = "# tracer: squashlab " + header + "\n#\n";
  out += "#            TASK   CPU#   STEP  FUNCTION\n#               |     |       |  |\n";
  char line[200];
  for (const TraceEvent& e : events) {
    const std::string& name = e.task < static_cast<int>(task_names.size()) ? task_names[e.task] : "?";
    std::snprintf(line, sizeof line, "%16s  [%03d] %6ld: %s %llu%s%s\n", name.c_str(), e.cpu,
                  e.step, e.op, static_cast<unsigned long long>(e.arg),
                  e.woken ? " (woken)" : "", e.preempted ? "   <-- preempts" : "");
    out += line;
  }
  return out;
}

std::string ScheduleTrace::ChromeJson(const Report& report) const {
  std::string out = "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
  for (size_t i = 0; i < task_names.size(); i++) {
    out += "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":" + std::to_string(i) +
           ",\"args\":{\"name\":\"" + JsonEscape(task_names[i]) + "\"}},\n";
  }
  auto ts = [this](uint64_t v) {
    if (!ts_is_ns) return std::to_string(v);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", v / 1000.0);
    return std::string(buf);
  };
  uint64_t last_ts = 0;
  int last_task = 0;
  for (size_t i = 0; i < events.size(); i++) {
    const TraceEvent& e = events[i];
    uint64_t next = i + 1 < events.size() ? events[i + 1].ts_ns : e.ts_ns + 1;
    uint64_t dur = next > e.ts_ns ? next - e.ts_ns : 1;
    out += "{\"name\":\"" + JsonEscape(e.op) + "\",\"ph\":\"X\",\"pid\":1,\"tid\":" +
           std::to_string(e.task) + ",\"ts\":" + ts(e.ts_ns) + ",\"dur\":" + ts(dur) + ",\"args\":{\"step\":" + std::to_string(e.step) +
           ",\"arg\":" + std::to_string(e.arg) + ",\"cpu\":" + std::to_string(e.cpu) + "}},\n";
    last_ts = e.ts_ns + dur;
    last_task = e.task;
  }
  if (!report.empty()) {
    out += "{\"name\":\"" + JsonEscape(report.title) + "\",\"ph\":\"i\",\"s\":\"g\",\"pid\":1,\"tid\":" +
           std::to_string(last_task) + ",\"ts\":" + ts(last_ts) + ",\"args\":{\"report\":\"" + JsonEscape(report.ToString()) + "\"}},\n";
  }
  out += "{\"name\":\"end\",\"ph\":\"i\",\"s\":\"g\",\"pid\":1,\"tid\":0,\"ts\":" + ts(last_ts) +
         "}\n]}\n";
  return out;
}

bool WriteChromeTrace(const std::string& path, const ScheduleTrace& trace, const Report& report) {
  std::ofstream f(path, std::ios::binary);
  if (!f) return false;
  f << trace.ChromeJson(report);
  return static_cast<bool>(f);
}

}  // namespace squashlab
