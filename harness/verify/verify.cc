// SPDX-License-Identifier: GPL-2.0-only
// This file implements the verify job, its table, and repro.
#include "harness/verify/verify.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <unordered_set>

#include "harness/linux_mount.h"
#include "model/base/rng.h"
#include "model/sched/exhaustive_strategy.h"
#include "model/sched/replay_strategy.h"
#include "model/sched/schedule_trace.h"
#include "model/variants/decompressor.h"
#include "model/variants/read_path.h"

namespace squashlab {
namespace {

double Since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t)
      .count();
}

uint64_t Hash(const std::vector<int>& v) {
  uint64_t h = 1469598103934665603ULL;
  for (int x : v) h = (h ^ static_cast<uint64_t>(x + 1)) * 1099511628211ULL;
  return h;
}

// Keeps a strategy's picks within the enabled tasks. The model's
// exhaustive strategy replays its stack blindly; a run whose enabled sets
// differ from the previous one's (wake-ups hashed by heap address, see
// README) would otherwise make it pick a finished task.
class EnabledOnly : public Strategy {
 public:
  explicit EnabledOnly(std::unique_ptr<Strategy> inner)
      : inner_(std::move(inner)) {}
  std::string Name() const override { return inner_->Name(); }
  void BeginRun(uint64_t seed) override { inner_->BeginRun(seed); }
  void OnSpawn(int id) override { inner_->OnSpawn(id); }
  int Pick(const std::vector<int>& enabled, int current, bool current_enabled,
           long step) override {
    int pick = inner_->Pick(enabled, current, current_enabled, step);
    if (std::find(enabled.begin(), enabled.end(), pick) != enabled.end())
      return pick;
    diverged_++;
    return NonPreemptivePick(enabled, current, current_enabled);
  }
  bool EndRun(long steps) override { return inner_->EndRun(steps); }
  bool OnStep(const StepInfo& step) override { return inner_->OnStep(step); }
  bool WantsSteps() const override { return inner_->WantsSteps(); }
  long diverged() const { return diverged_; }
  const ExhaustiveStrategy* Exhaustive() const {
    return dynamic_cast<const ExhaustiveStrategy*>(inner_.get());
  }

 private:
  std::unique_ptr<Strategy> inner_;
  long diverged_ = 0;
};

bool Better(const RunResult& a, const RunResult& b) {
  if (a.preemptions != b.preemptions) return a.preemptions < b.preemptions;
  if (a.report.step != b.report.step) return a.report.step < b.report.step;
  return a.steps < b.steps;
}

// The schedule up to the report it stands for (a run goes on after a
// warning), as an ftrace-like listing.
std::string FtraceToReport(const RunResult& r, const std::string& header) {
  if (r.report.step < 0) return r.trace.Ftrace(header);
  ScheduleTrace t;
  t.task_names = r.trace.task_names;
  t.ts_is_ns = r.trace.ts_is_ns;
  for (const TraceEvent& e : r.trace.events)
    if (e.step <= r.report.step) t.events.push_back(e);
  return t.Ftrace(header);
}

// The run's other reports, when it had several (warnings do not end it).
std::string RunReportsLine(const RunResult& r) {
  if (r.reports.size() < 2) return "";
  std::string out = "reports of this run, in order:\n";
  for (const Report& x : r.reports)
    out += "  " + std::string(x.warning ? "warning" : "fatal  ") + "  " +
           x.title + "\n";
  return out;
}

std::string ClassKey(const Report& r) {
  return std::string(ReportKindName(r.kind)) + "|" + r.title;
}

// Minimises by replay only (the model's exhaustive pass assumes schedules
// that do not depend on heap addresses; see README): repeatedly try a
// shorter prefix of the choices, or one choice reverted to the
// non-preemptive default, keeping a report of the same kind and title
// (anywhere in the run: warnings do not end it).
RunResult MinimiseByReplay(Explorer& e, const Scenario& sc,
                           const RunResult& failing, long budget,
                           std::chrono::steady_clock::time_point deadline =
                               std::chrono::steady_clock::time_point::max()) {
  RunResult best = failing;
  bool improved = true;
  while (improved && budget > 0 &&
         std::chrono::steady_clock::now() < deadline) {
    improved = false;
    const std::vector<int> base = best.choices;
    for (size_t i = 0; i < base.size() && budget > 0 && !improved; i++) {
      for (int variant = 0; variant < 2 && budget > 0 && !improved; variant++) {
        std::vector<int> cand(base.begin(),
                              base.begin() + static_cast<long>(i));
        if (variant == 1) {
          if (base[i] < 0) continue;
          cand.push_back(-1);
          cand.insert(cand.end(), base.begin() + static_cast<long>(i) + 1,
                      base.end());
        }
        ReplayStrategy replay(cand);
        RunResult r = e.RunOnce(sc, replay, best.seed, true);
        budget--;
        if (r.Focus(best.report) && Better(r, best)) {
          r.strategy = failing.strategy + "-min";
          best = std::move(r);
          improved = true;
        }
      }
    }
  }
  return best;
}

}  // namespace

CellResult ExploreScenarios(const std::vector<Scenario>& scenarios,
                            const VerifyOptions& opt, double seconds,
                            std::ostream* progress) {
  CellResult cell;
  auto start = std::chrono::steady_clock::now();
  Explorer explorer;
  std::unordered_set<uint64_t> seen;
  bool exhaustive = opt.strategy == "exhaustive";
  double next_progress = 30;
  for (size_t si = 0; si < scenarios.size(); si++) {
    const Scenario& sc = scenarios[si];
    ExploreOptions eo;
    eo.strategy = opt.strategy;
    eo.pct_depth = opt.pct_depth;
    eo.preemption_bound = opt.preemption_bound;
    eo.por = opt.por;
    eo.iterative = opt.iterative;
    const RunSpec spec = sc;
    auto strategy =
        std::make_unique<EnabledOnly>(MakeStrategy(eo, spec.footprint));
    // The budget spread evenly, at least one schedule a scenario: every
    // image and workload of the cell is run.
    long per =
        opt.budget > 0
            ? std::max(1L, (opt.budget + static_cast<long>(scenarios.size()) -
                            1 - static_cast<long>(si)) /
                               static_cast<long>(scenarios.size()))
            : (1L << 40);
    // Collecting classes by time: the last quarter of the cell's time
    // minimises them.
    const double explore = opt.all_classes ? seconds * 0.75 : seconds;
    double until = explore * static_cast<double>(si + 1) /
                   static_cast<double>(scenarios.size());
    bool more = true;
    for (long run = 0; run < per && more; run++) {
      uint64_t seed =
          exhaustive ? opt.seed
                     : Rng::Mix(opt.seed, static_cast<uint64_t>(cell.runs));
      RunResult r = explorer.RunOnce(spec, *strategy, seed, true);
      cell.runs++;
      if (r.pruned)
        cell.pruned++;
      else
        seen.insert(Hash(r.choices) ^ si);
      more = r.more;
      if (r.failed() && opt.all_classes) {
        if (!cell.found) {
          cell.found = true;
          cell.first_failing_run = cell.runs;
          cell.seconds_to_first = Since(start);
          cell.scenario = sc.name;
        }
        for (const Report& rep : r.reports) {
          bool known = false;
          for (const auto& c : cell.classes)
            known |= ClassKey(c.failure.report) == ClassKey(rep);
          if (known) continue;
          ClassFinding f;
          f.scenario = sc.name;
          f.first_run = cell.runs;
          f.seconds = Since(start);
          f.failure = r;
          f.failure.Focus(rep);
          cell.classes.push_back(std::move(f));
        }
      } else if (r.failed()) {
        cell.found = true;
        cell.first_failing_run = cell.runs;
        cell.seconds_to_first = Since(start);
        cell.scenario = sc.name;
        cell.failure = r;
        cell.minimised = opt.minimise
                             ? MinimiseByReplay(explorer, sc, cell.failure,
                                                opt.minimise_budget)
                             : cell.failure;
        cell.distinct = static_cast<long>(seen.size());
        cell.seconds = Since(start);
        return cell;
      }
      if (progress != nullptr && (cell.runs & 1023) == 0 &&
          Since(start) > next_progress) {
        next_progress += 30;
        *progress << "  " << sc.name << ": " << cell.runs << " runs ("
                  << cell.pruned << " pruned), "
                  << static_cast<long>(Since(start)) << " s";
        if (const auto* ex = strategy->Exhaustive())
          *progress << ", bound " << ex->level() << " of "
                    << opt.preemption_bound;
        *progress << "\n";
        progress->flush();
      }
      if (opt.budget == 0 && Since(start) > until) break;
    }
    if (exhaustive && !more) cell.exhausted = true;
  }
  const auto end =
      start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                  std::chrono::duration<double>(seconds));
  for (size_t i = 0; i < cell.classes.size(); i++) {
    ClassFinding& f = cell.classes[i];
    // By time, each class gets an equal share of what is left.
    auto deadline = std::chrono::steady_clock::time_point::max();
    if (opt.budget == 0)
      deadline = std::chrono::steady_clock::now() +
                 (end - std::chrono::steady_clock::now()) /
                     static_cast<long>(cell.classes.size() - i);
    for (const auto& sc : scenarios) {
      if (sc.name != f.scenario) continue;
      f.minimised = opt.minimise
                        ? MinimiseByReplay(explorer, sc, f.failure,
                                           opt.minimise_budget, deadline)
                        : f.failure;
      f.root = FindRootCause(explorer, sc, f.minimised);
    }
  }
  if (!cell.classes.empty()) {
    cell.failure = cell.classes.front().failure;
    cell.minimised = cell.classes.front().minimised;
  }
  cell.distinct = static_cast<long>(seen.size());
  cell.seconds = Since(start);
  return cell;
}

std::vector<std::string> WorkloadsOf(const VerifyOptions& opt) {
  return opt.workloads.empty() ? DefaultWorkloads() : opt.workloads;
}

std::vector<std::string> KernelsOf(const VerifyOptions& opt) {
  if (!opt.kernels.empty()) return opt.kernels;
  return opt.all_classes ? std::vector<std::string>{"debug", "prod"}
                         : std::vector<std::string>{"debug"};
}

// A scenario's kernel field (ScenarioSpec::kernel): "prod", "kcsan",
// "watch", "lint" joined by '+' ("" a plain debug kernel). KCSAN runs on
// the debug kernel only: its heap never hands a freed object's memory to
// another within a run, so a location's history is one object's.
std::string KernelFlavour(const VerifyOptions& opt, bool prod) {
  std::string kf = prod ? "prod" : "";
  if (prod) return opt.lint ? "prod+lint" : kf;
  auto add = [&kf](const char* part) {
    kf += kf.empty() ? part : std::string("+") + part;
  };
  if (opt.detector == "kcsan") add("kcsan");
  if (opt.detector == "kcsan" && opt.watchpoints) add("watch");
  if (opt.lint) add("lint");
  return kf;
}

StatusOr<std::vector<CellScenarios>> MakeCells(const VerifyOptions& opt) {
  auto images = ResolveImages(opt.images);
  if (!images.ok()) return images.status();
  std::vector<std::string> variants = opt.variants, decomps = opt.decomps;
  if (variants.empty()) {
    for (const auto* v : AllReadPaths()) variants.push_back(v->name);
    for (const auto& v : LinuxVariantNames()) variants.push_back(v);
  }
  const bool all_decomps = decomps.empty();
  if (all_decomps)
    for (const auto* d : AllDecompressors()) decomps.push_back(d->name);
  const std::vector<std::string> kernels = KernelsOf(opt);
  for (const auto& k : kernels)
    if (k != "debug" && k != "prod")
      return Status::InvalidArgument("unknown kernel " + k);
  if (opt.strategy != "pct" && opt.strategy != "random" &&
      opt.strategy != "exhaustive")
    return Status::InvalidArgument("unknown strategy " + opt.strategy);
  std::vector<CellScenarios> cells;
  for (const auto& v : variants) {
    for (const auto& d : decomps) {
      // Real code builds only the kernel's own strategies.
      if (all_decomps && IsLinuxVariant(v) && !LinuxBuildsStrategy(d)) continue;
      CellScenarios cell{v, d, {}};
      auto add = [&cell](const ScenarioSpec& spec, const VerifyImage& img) {
        auto sc = MakeScenario(spec, img.model);
        if (!sc.ok())
          return img.label.empty()
                     ? sc.status()
                     : Status::InvalidArgument(img.origin + ": " +
                                               sc.status().ToString());
        cell.scenarios.push_back(std::move(sc).value());
        return Status::Ok();
      };
      for (const VerifyImage& img : images.value()) {
        for (const auto& kernel : kernels) {
          for (const auto& w : WorkloadsOf(opt)) {
            Status st = add({v, d, w, opt.faults, opt.device,
                             KernelFlavour(opt, kernel == "prod"), img.label},
                            img);
            if (!st.ok()) return st;
          }
        }
        for (const auto& w : opt.eio_workloads) {
          Status st = add({v, d, w, "eio", opt.device,
                           KernelFlavour(opt, false), img.label},
                          img);
          if (!st.ok()) return st;
        }
        for (const auto& w : opt.second_device_workloads) {
          Status st = add({v, d, w, opt.faults, opt.second_device,
                           KernelFlavour(opt, false), img.label},
                          img);
          if (!st.ok()) return st;
        }
      }
      cells.push_back(std::move(cell));
    }
  }
  return cells;
}

void AddPageSizedBlockDevice(VerifyOptions& opt, bool named_workloads) {
  opt.second_device = "nvme,bs=4096";
  opt.second_device_workloads = named_workloads
                                    ? opt.workloads
                                    : std::vector<std::string>{"dd2", "every"};
}

StatusOr<VerifyResult> RunVerify(const VerifyOptions& opt, std::ostream* log) {
  auto cells = MakeCells(opt);
  if (!cells.ok()) return cells.status();
  VerifyResult res;
  auto start = std::chrono::steady_clock::now();
  double per_cell = opt.seconds / static_cast<double>(cells->size());
  for (const CellScenarios& c : cells.value()) {
    CellResult cell = ExploreScenarios(c.scenarios, opt, per_cell, log);
    cell.variant = c.variant;
    cell.decomp = c.decomp;
    if (log) {
      *log << c.variant << " x " << c.decomp << ": " << cell.runs
           << " schedules, "
           << (cell.found ? cell.minimised.report.title : std::string("clean"))
           << "\n";
      log->flush();
    }
    res.cells.push_back(std::move(cell));
  }
  res.seconds = Since(start);
  return res;
}

std::string FormatTable(const VerifyResult& r) {
  std::string out;
  char line[512];
  std::snprintf(line, sizeof line, "%-19s %-17s %9s %9s %4s %8s  %s\n",
                "variant", "decompressor", "schedules", "distinct", "viol",
                "to-first", "verdict");
  out += line;
  for (const auto& c : r.cells) {
    std::string verdict = c.found
                              ? c.minimised.report.title
                              : (c.exhausted ? "clean (exhausted)" : "clean");
    if (c.pruned > 0)
      verdict += " [" + std::to_string(c.pruned) + " runs pruned]";
    std::string first = c.found ? std::to_string(c.first_failing_run) : "-";
    std::snprintf(line, sizeof line, "%-19s %-17s %9ld %9ld %4d %8s  %s\n",
                  c.variant.c_str(), c.decomp.c_str(), c.runs, c.distinct,
                  c.found ? 1 : 0, first.c_str(), verdict.c_str());
    out += line;
  }
  std::snprintf(line, sizeof line, "(%zu cells, %.1f s)\n", r.cells.size(),
                r.seconds);
  out += line;
  return out;
}

std::string FormatFailures(const VerifyResult& r) {
  std::string out;
  for (const auto& c : r.cells) {
    if (!c.found) continue;
    if (!c.classes.empty()) {
      for (const auto& f : c.classes) {
        const RunResult& m = f.minimised;
        out += "==== " + c.variant + " x " + c.decomp + ": " +
               ReportKindName(m.report.kind) + " ====\n";
        out += m.report.ToString();
        out += "scenario: " + f.scenario + "\n";
        out += "first found after " + std::to_string(f.first_run) +
               " schedules (" + std::to_string(f.seconds) + " s) by " +
               f.failure.strategy + "\n";
        out += "replay token: " + f.failure.Token(f.scenario).ToString() + "\n";
        out += "minimised: " + std::to_string(m.preemptions) +
               " preemptions, " + std::to_string(m.steps) + " steps" +
               (m.report.step >= 0 ? " (the report at step " +
                                         std::to_string(m.report.step) + ")"
                                   : std::string()) +
               "; token: " + m.Token(f.scenario).ToString() + "\n";
        out += RunReportsLine(m);
        out += FtraceToReport(
            m, "minimised schedule of " + f.scenario + ", up to the report");
        out += "\n";
      }
      continue;
    }
    const RunResult& m = c.minimised;
    out += "==== " + c.variant + " x " + c.decomp + " ====\n";
    out += m.report.ToString();
    out += "scenario: " + c.scenario + "\n";
    out += "found after " + std::to_string(c.first_failing_run) +
           " schedules (" + std::to_string(c.seconds_to_first) + " s) by " +
           c.failure.strategy + "\n";
    out += "replay token: " + c.failure.Token(c.scenario).ToString() + "\n";
    out += "minimised: " + std::to_string(m.preemptions) + " preemptions, " +
           std::to_string(m.steps) +
           " steps; token: " + m.Token(c.scenario).ToString() + "\n";
    out += RunReportsLine(m);
    out += FtraceToReport(
        m, "minimised schedule of " + c.scenario + ", up to the report");
    out += "\n";
  }
  return out;
}

StatusOr<RunResult> Repro(const std::string& token, const ImageChoice& images,
                          bool trace) {
  auto t = ReplayToken::Parse(token);
  if (!t.ok()) return t.status();
  auto spec = ScenarioSpec::Parse(t.value().scenario);
  if (!spec.ok()) return spec.status();
  auto img = ResolveImageLabel(images, spec->image);
  if (!img.ok()) return img.status();
  auto sc = MakeScenario(spec.value(), img.value());
  if (!sc.ok()) return sc.status();
  Explorer e;
  return e.Replay(sc.value(), t.value(), trace);
}

bool WriteRunTrace(const std::string& path, const RunResult& r) {
  return WriteChromeTrace(path, r.trace, r.report);
}

std::string FtraceUpToReport(const RunResult& r, const std::string& header) {
  return FtraceToReport(r, header);
}

}  // namespace squashlab
