// SPDX-License-Identifier: GPL-2.0-only
// This file implements the in-process fuzzing loop over real kernel code.
#include "harness/realfuzz/fuzz_engine.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <memory>

#include "harness/realfuzz/image_mutator.h"
#include "model/linux/vfs_walk.h"
#include "model/sched/bytes_strategy.h"
#include "model/sched/explorer.h"

namespace squashlab {
namespace {

using Clock = std::chrono::steady_clock;

double Since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

bool Shows(const WalkOutcome& o, const Report& want) {
  for (const Report& r : o.reports)
    if (r.SameAs(want)) return true;
  return false;
}

// The input being walked, written out if the process aborts under it (a
// host heap corruption the model's checks did not see: a lab bug to fix,
// or a bug of the code under test outside what KASAN watches).
const std::vector<uint8_t>* g_current = nullptr;
const char* g_crash_path = nullptr;

void DumpCurrentInput(int sig) {
  if (g_current != nullptr && g_crash_path != nullptr) {
    int fd = open(g_crash_path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd >= 0) {
      ssize_t n = write(fd, g_current->data(), g_current->size());
      (void)n;
      close(fd);
      static const char kMsg[] =
          "squashlab fuzz: the process aborted; the input is in ";
      n = write(2, kMsg, sizeof kMsg - 1);
      n = write(2, g_crash_path, strlen(g_crash_path));
      n = write(2, "\n", 1);
    }
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

struct CorpusEntry {
  size_t seed;  // index into the seeds it descends from
  std::vector<uint8_t> bytes;
};

}  // namespace

WalkOutcome RunWalk(const WalkTarget& target, const WalkLimits& limits,
                    const std::vector<uint8_t>& image) {
  // One explorer per thread: its executor's fibers are reused by every run.
  thread_local Explorer explorer;
  BytesStrategy strategy({});  // non-preemptive: one task walks
  g_current = &image;
  Scenario sc = MakeWalkScenario(
      target, std::make_shared<const std::vector<uint8_t>>(image), limits);
  RunResult r = explorer.RunOnce(sc, strategy, 1, false);
  WalkOutcome o;
  o.reports = r.reports;
  if (o.reports.empty() && !r.report.empty()) o.reports.push_back(r.report);
  o.completed = r.completed;
  o.steps = r.steps;
  return o;
}

std::vector<uint8_t> MinimiseImage(const WalkTarget& target,
                                   const WalkLimits& limits,
                                   const std::vector<uint8_t>& image,
                                   const std::vector<uint8_t>& seed,
                                   const Report& want, long budget) {
  std::vector<uint8_t> best = image;
  auto still = [&](const std::vector<uint8_t>& candidate) {
    if (budget-- <= 0) return false;
    return Shows(RunWalk(target, limits, candidate), want);
  };
  // The seed's length first (a cut tail put back).
  if (best.size() != seed.size()) {
    std::vector<uint8_t> c = best;
    c.resize(seed.size());
    for (size_t i = std::min(best.size(), seed.size()); i < seed.size(); i++)
      c[i] = seed[i];
    if (still(c)) best = std::move(c);
  }
  if (best.size() != seed.size()) return best;
  std::vector<size_t> diff;
  for (size_t i = 0; i < best.size(); i++)
    if (best[i] != seed[i]) diff.push_back(i);
  // Put back chunks of the differing bytes, halving the chunk.
  for (size_t chunk = std::max<size_t>(diff.size() / 2, 1);; chunk /= 2) {
    for (size_t start = 0; start < diff.size() && budget > 0;) {
      std::vector<uint8_t> c = best;
      size_t end = std::min(diff.size(), start + chunk);
      for (size_t k = start; k < end; k++) c[diff[k]] = seed[diff[k]];
      if (still(c)) {
        best = std::move(c);
        diff.erase(diff.begin() + static_cast<long>(start),
                   diff.begin() + static_cast<long>(end));
      } else {
        start = end;
      }
    }
    if (chunk == 1 || budget <= 0) break;
  }
  return best;
}

FuzzResult RunFuzz(const FuzzOptions& opt, std::ostream* log) {
  FuzzResult res;
  const auto start = Clock::now();
  LinuxCoverageEnable(true);
  static std::string crash_path;
  crash_path = opt.crash_path;
  g_crash_path = crash_path.empty() ? nullptr : crash_path.c_str();
  signal(SIGABRT, DumpCurrentInput);
  ImageMutator mutator(opt.seed);
  std::vector<CorpusEntry> corpus;
  for (size_t i = 0; i < opt.seeds.size(); i++)
    corpus.push_back({i, opt.seeds[i].bytes});
  auto last_log = start;
  auto record = [&](const WalkOutcome& o, const CorpusEntry& from,
                    const std::vector<uint8_t>& image,
                    const std::vector<std::string>& what) {
    for (const Report& r : o.reports) {
      if (r.empty()) continue;
      auto it = std::find_if(
          res.findings.begin(), res.findings.end(),
          [&](const FuzzFinding& f) { return f.report.SameAs(r); });
      if (it != res.findings.end()) {
        it->count++;
        continue;
      }
      FuzzFinding f;
      f.report = r;
      f.seed_name = opt.seeds[from.seed].name;
      f.mutations = what;
      f.image = image;
      f.exec = res.execs;
      f.seconds = Since(start);
      f.count = 1;
      if (log)
        *log << "squashlab fuzz: new finding after " << res.execs
             << " executions (" << static_cast<long>(f.seconds)
             << " s): " << r.title << "\n";
      res.findings.push_back(std::move(f));
    }
  };
  // The seeds as they are, then mutants of the corpus.
  for (size_t i = 0; i < corpus.size(); i++) {
    WalkOutcome o = RunWalk(opt.target, opt.limits, corpus[i].bytes);
    res.execs++;
    record(o, corpus[i], corpus[i].bytes, {"the seed, unchanged"});
  }
  size_t sites = LinuxCoverageSites();
  std::vector<uint8_t> input;
  std::vector<std::string> what;
  while (!corpus.empty()) {
    if (opt.max_execs > 0 && res.execs >= opt.max_execs) break;
    if (opt.seconds > 0 && Since(start) >= opt.seconds) break;
    if (opt.stop_at_first && !res.findings.empty()) break;
    const CorpusEntry& from = corpus[mutator.Below(corpus.size())];
    input = from.bytes;
    what.clear();
    mutator.Mutate(&input, input.size(), &what);
    WalkOutcome o = RunWalk(opt.target, opt.limits, input);
    res.execs++;
    record(o, from, input, what);
    // An input that reached a function none reached before joins the
    // corpus (a coarse guide: functions, not edges).
    size_t now = LinuxCoverageSites();
    if (now > sites && o.reports.empty() && corpus.size() < 256) {
      sites = now;
      corpus.push_back({from.seed, input});
    }
    if (log &&
        std::chrono::duration<double>(Clock::now() - last_log).count() >= 5) {
      last_log = Clock::now();
      const double s = Since(start);
      char line[200];
      std::snprintf(line, sizeof line,
                    "squashlab fuzz: %ld executions, %.0f s, %.0f exec/s, "
                    "corpus %zu, %zu functions, %zu findings\n",
                    res.execs, s, res.execs / std::max(s, 1e-9), corpus.size(),
                    LinuxFunctionsReached().size(), res.findings.size());
      *log << line << std::flush;
    }
  }
  res.seconds = Since(start);
  for (FuzzFinding& f : res.findings) {
    const std::vector<uint8_t>* seed = nullptr;
    for (const SeedImage& s : opt.seeds)
      if (s.name == f.seed_name) seed = &s.bytes;
    f.minimised = seed ? MinimiseImage(opt.target, opt.limits, f.image, *seed,
                                       f.report, opt.minimise_budget)
                       : f.image;
    if (seed != nullptr) {
      for (size_t i = 0; i < f.minimised.size(); i++)
        f.bytes_changed += i >= seed->size() || f.minimised[i] != (*seed)[i];
      if (f.minimised.size() < seed->size())
        f.bytes_changed += static_cast<long>(seed->size() - f.minimised.size());
    }
  }
  res.functions = LinuxFunctionsReached();
  return res;
}

}  // namespace squashlab
