// SPDX-License-Identifier: GPL-2.0-only
// This file implements the schedule fuzzer's input decoding and run.
#include "fuzz/schedule_case.h"

#include <cstdio>
#include <cstdlib>
#include <memory>

#include "harness/explore_once.h"
#include "harness/model_names.h"

namespace squashlab::fuzz {

namespace {

template <typename T>
const T& Choose(const std::vector<T>& options, uint8_t b) {
  return options[b % options.size()];
}

std::vector<std::string> WorkloadNames() {
  // The committed inputs' layout: the six workloads they were made with
  // (workloads added later would change what their workload byte means).
  return {"dd", "dd2", "ddx2", "rand", "reclaim", "pair"};
}

std::vector<std::string> FaultChoices() {
  std::vector<std::string> plans = {""};
  plans.insert(plans.end(), FaultPlans().begin(), FaultPlans().end());
  return plans;
}

// The named plans in hw_emul's grammar, for composing with device faults
// (the rates harness/scenario_spec.cc uses for them on a device).
const char* DeviceGrammar(const std::string& named) {
  if (named == "eio") return "eio=0.167";
  if (named == "reada") return "reada_drop=0.333";
  return "";
}

[[noreturn]] void HarnessBug(const std::string& what) {
  std::fprintf(stderr, "schedule_case: %s\n", what.c_str());
  std::abort();
}

}  // namespace

std::vector<std::string> CorrectVariants() {
  std::vector<std::string> names;
  for (const std::string& name : HandWrittenReadPathNames())
    if (name != kKnownBuggyVariant) names.push_back(name);
  return names;
}

const std::vector<std::string>& Devices() {
  static const std::vector<std::string> devices = [] {
    std::vector<std::string> d = {""};
    for (const std::string& p : DeviceProfileNames())
      for (const char* bs : {",bs=512", "", ",bs=4096"}) d.push_back(p + bs);
    return d;
  }();
  return devices;
}

std::string DeviceFaults(uint8_t b, const std::string& device) {
  static const std::vector<std::string> named = FaultChoices();
  const std::string& base = Choose(named, b & 3);
  // bitflip stays the medium's one flip in a compressed range (where a codec
  // can notice it): hw_emul's flip= may hit uncompressed bytes, which no
  // read path could tell from good data.
  if (device.empty() || (b & 0x1c) == 0 || base == "bitflip") return base;
  std::string plan = DeviceGrammar(base);
  auto add = [&plan](const char* item) {
    plan += (plan.empty() ? "" : ";") + std::string(item);
  };
  if (b & 0x04) add("delay=0.25;delay_us=200");
  if (b & 0x08) add("reorder=0.25");
  if (b & 0x10) add("short=0.125");
  return plan;
}

ScheduleCase DecodeScheduleCase(const uint8_t* data, size_t size,
                                const std::vector<std::string>& variants) {
  static const std::vector<std::string> decomps = DecompressorNames();
  static const std::vector<std::string> workloads = WorkloadNames();
  auto at = [&](size_t i) -> uint8_t { return i < size ? data[i] : 0; };
  ScheduleCase c;
  c.spec.variant = Choose(variants, at(0));
  c.spec.decomp = Choose(decomps, at(1));
  c.spec.workload = Choose(workloads, at(2));
  c.spec.device = Choose(Devices(), at(4));
  c.spec.faults = DeviceFaults(at(3), c.spec.device);
  if (at(3) & 0x80) c.spec.kernel = "prod";
  for (size_t i = 0; i < 4; i++)
    c.seed |= static_cast<uint64_t>(at(5 + i)) << (8 * i);
  if (size > kScheduleHeaderSize)
    c.choices.assign(data + kScheduleHeaderSize, data + size);
  return c;
}

ScheduleRun RunScheduleCase(const ScheduleCase& c, bool trace) {
  static const std::shared_ptr<const ImageModel> image = [] {
    auto img = DefaultImage();
    if (!img.ok()) HarnessBug("embedded image: " + img.status().ToString());
    return img.value();
  }();
  StatusOr<Scenario> sc = MakeScenario(c.spec, image);
  if (!sc.ok()) HarnessBug(c.spec.Name() + ": " + sc.status().ToString());
  ScheduleRun run;
  run.scenario = sc.value().name;
  run.result = ExploreOnceWithChoices(sc.value(), c.choices, c.seed, trace,
                                      &run.consumed);
  return run;
}

std::string FormatScheduleFinding(const ScheduleRun& run, const Report* focus) {
  const RunResult& r = run.result;
  const Report& report = focus != nullptr ? *focus : r.report;
  std::string token = r.Token(run.scenario).ToString();
  std::string out = report.ToString();
  out += "class: " + std::string(ReportKindName(report.kind)) + "\n";
  if (r.reports.size() > 1) {
    out += "all reports of the run:";
    for (const Report& x : r.reports)
      out += std::string(" ") + ReportKindName(x.kind);
    out += "\n";
  }
  out +=
      "scenario: " + run.scenario + "\nseed: " + std::to_string(r.seed) + "\n";
  out += std::to_string(r.preemptions) + " preemptions, " +
         std::to_string(r.steps) + " steps, " + std::to_string(run.consumed) +
         " choice bytes used\n";
  out += "replay token: " + token + "\n";
  out += "reproduce: squashlab repro '" + token + "'\n";
  return out;
}

}  // namespace squashlab::fuzz
