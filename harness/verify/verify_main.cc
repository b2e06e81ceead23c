// SPDX-License-Identifier: GPL-2.0-only
// This file implements a development driver: `verify_main SCENARIO RUNS`
// explores one scenario of the embedded image and prints the outcome.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <string>

#include "harness/verify/verify.h"
#include "model/base/rng.h"

int main(int argc, char** argv) {
  using namespace squashlab;
  if (argc < 3) {
    std::fprintf(stderr, "usage: verify_main SCENARIO RUNS [strategy]\n");
    return 2;
  }
  auto spec = ScenarioSpec::Parse(argv[1]);
  auto img = DefaultImage();
  if (!spec.ok() || !img.ok()) return 2;
  auto sc = MakeScenario(spec.value(), img.value());
  if (!sc.ok()) {
    std::cerr << sc.status().ToString() << "\n";
    return 2;
  }
  VerifyOptions opt;
  opt.budget = std::atol(argv[2]);
  if (argc > 3) opt.strategy = argv[3];
  if (argc > 4) opt.minimise = std::string(argv[4]) != "nomin";
  if (argc > 4) opt.all_classes = std::string(argv[4]) == "classes";
  std::setvbuf(stdout, nullptr, _IONBF, 0);
  {
    Explorer e;
    auto st = MakeRandomStrategy();
    RunResult one = e.RunOnce(sc.value(), *st, 1, true);
    std::printf("first run: %ld steps, %zu tasks, completed=%d %s\n", one.steps,
                one.trace.task_names.size(), one.completed,
                one.report.title.c_str());
  }
  if (std::getenv("TALLY")) {
    std::map<std::string, long> tally;
    Explorer e;
    ExploreOptions eo;
    eo.strategy = opt.strategy;
    auto st = MakeStrategy(eo);
    for (long run = 0; run < opt.budget; run++) {
      RunResult r = e.RunOnce(sc.value(), *st, Rng::Mix(1, run), false);
      if (!r.failed()) tally["clean"]++;
      for (const auto& rep : r.reports) tally[rep.title]++;
    }
    for (auto& [t, n] : tally) std::printf("%6ld  %s\n", n, t.c_str());
    return 0;
  }
  if (std::getenv("TTFD")) {  // time to first detection per class over seeds
    std::map<std::string, std::vector<long>> runs;
    std::map<std::string, std::vector<double>> secs;
    int seeds = std::atoi(std::getenv("TTFD"));
    for (int s = 1; s <= seeds; s++) {
      VerifyOptions o = opt;
      o.seed = static_cast<uint64_t>(s);
      o.all_classes = true;
      o.minimise = false;
      CellResult c = ExploreScenarios({sc.value()}, o, 0);
      for (const auto& f : c.classes) {
        runs[f.failure.report.title].push_back(f.first_run);
        secs[f.failure.report.title].push_back(f.seconds);
      }
    }
    for (auto& [k, v] : runs) {
      std::sort(v.begin(), v.end());
      auto& t = secs[k];
      std::sort(t.begin(), t.end());
      // The median over all seeds; a seed that never found the class counts
      // as more than the budget (reported as ">budget" when it decides).
      size_t mid = static_cast<size_t>(seeds) / 2;
      std::string med = mid < v.size() ? std::to_string(v[mid])
                                       : ">" + std::to_string(opt.budget);
      std::string sec = mid < t.size() ? std::to_string(t[mid]) : "-";
      std::printf(
          "%-7s found in %2zu/%d seeds; median %s schedules, %s s  %s\n",
          opt.strategy.c_str(), v.size(), seeds, med.c_str(), sec.c_str(),
          k.c_str());
    }
    return 0;
  }
  CellResult c = ExploreScenarios({sc.value()}, opt, 0);
  std::printf("%ld runs, %ld distinct, %.2f s, found=%d\n", c.runs, c.distinct,
              c.seconds, c.found);
  if (c.found) {
    VerifyResult r;
    c.variant = spec.value().variant;
    c.decomp = spec.value().decomp;
    r.cells.push_back(c);
    std::cout << FormatFailures(r);
  }
  return 0;
}
