// This file implements the schedule fuzzer's input decoding and run.
#include "fuzz/schedule_case.h"

#include <cstdio>
#include <cstdlib>
#include <memory>

#include "model/bytes_strategy.h"
#include "model/variants/decompressor.h"
#include "model/variants/read_path.h"

namespace squashlab::fuzz {

namespace {

template <typename T>
const T& Choose(const std::vector<T>& options, uint8_t b) {
  return options[b % options.size()];
}

std::vector<std::string> Decompressors() {
  std::vector<std::string> names;
  for (const SquashfsDecompressorOps* d : AllDecompressors()) names.push_back(d->name);
  return names;
}

std::vector<std::string> WorkloadNames() {
  std::vector<std::string> names;
  for (const auto& [name, what] : Workloads()) names.push_back(name);
  return names;
}

std::vector<std::string> FaultChoices() {
  std::vector<std::string> plans = {""};
  plans.insert(plans.end(), FaultPlans().begin(), FaultPlans().end());
  return plans;
}

[[noreturn]] void HarnessBug(const std::string& what) {
  std::fprintf(stderr, "schedule_case: %s\n", what.c_str());
  std::abort();
}

}  // namespace

std::vector<std::string> CorrectVariants() {
  std::vector<std::string> names;
  for (const ReadPathOps* rp : AllReadPaths())
    if (std::string(rp->name) != kKnownBuggyVariant) names.push_back(rp->name);
  return names;
}

ScheduleCase DecodeScheduleCase(const uint8_t* data, size_t size,
                                const std::vector<std::string>& variants) {
  static const std::vector<std::string> decomps = Decompressors();
  static const std::vector<std::string> workloads = WorkloadNames();
  static const std::vector<std::string> faults = FaultChoices();
  auto at = [&](size_t i) -> uint8_t { return i < size ? data[i] : 0; };
  ScheduleCase c;
  c.spec.variant = Choose(variants, at(0));
  c.spec.decomp = Choose(decomps, at(1));
  c.spec.workload = Choose(workloads, at(2));
  c.spec.faults = Choose(faults, at(3));
  for (size_t i = 0; i < 4; i++) c.seed |= static_cast<uint64_t>(at(4 + i)) << (8 * i);
  if (size > kScheduleHeaderSize) c.choices.assign(data + kScheduleHeaderSize, data + size);
  return c;
}

ScheduleRun RunScheduleCase(const ScheduleCase& c, bool trace) {
  static const std::shared_ptr<const ImageModel> image = [] {
    auto img = DefaultImage();
    if (!img.ok()) HarnessBug("embedded image: " + img.status().ToString());
    return img.value();
  }();
  static Explorer* explorer = new Explorer();  // reused: fibers and stacks
  StatusOr<Scenario> sc = MakeScenario(c.spec, image);
  if (!sc.ok()) HarnessBug(c.spec.Name() + ": " + sc.status().ToString());
  BytesStrategy strategy(c.choices);
  ScheduleRun run;
  run.scenario = sc.value().name;
  run.result = explorer->RunOnce(sc.value(), strategy, c.seed, trace);
  run.consumed = strategy.consumed();
  return run;
}

std::string FormatScheduleFinding(const ScheduleRun& run) {
  const RunResult& r = run.result;
  std::string token = r.Token(run.scenario).ToString();
  std::string out = r.report.ToString();
  out += "class: " + std::string(ReportKindName(r.report.kind)) + "\n";
  out += "scenario: " + run.scenario + "\nseed: " + std::to_string(r.seed) + "\n";
  out += std::to_string(r.preemptions) + " preemptions, " + std::to_string(r.steps) +
         " steps, " + std::to_string(run.consumed) + " choice bytes used\n";
  out += "replay token: " + token + "\n";
  out += "reproduce: squashlab repro '" + token + "'\n";
  return out;
}

}  // namespace squashlab::fuzz
