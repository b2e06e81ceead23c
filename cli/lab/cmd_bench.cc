// SPDX-License-Identifier: GPL-2.0-only
// This file implements `squashlab bench`: the seed threads' experiments
// replayed in simulate mode on emulated devices (bench/sim/), printed as
// tables and optionally written as JSON, CSV and a PNG plot (through
// bench/sim/plot.py, embedded; without matplotlib the command says so and
// still succeeds). `squashlab bench calibrate` measures this machine's
// codec costs and fits the profiles' CPUs to the seeds again.
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "bench/sim/bench.h"
#include "bench/sim/calibration.h"
#include "cli/arg_checks.h"
#include "cli/cli_status.h"
#include "cli/commands.h"
#include "cli/lab/exploration_options.h"
#include "cli/lab/model_choices.h"

namespace squashlab {
const char* BenchPlotScript();  // plot_py.cc (generated from bench/sim/plot.py)
}

namespace squashlab::cli {
namespace {

struct BenchArgs {
  BenchOptions opt;
  uint64_t size_mib = 0;
  std::string json, csv, plot;
  bool fit_only = false;
  CLI::App* calibrate = nullptr;
};

bool WriteFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  return static_cast<bool>(out);
}

int RunProgram(const std::vector<std::string>& argv) {
  std::fflush(nullptr);
  pid_t pid = ::fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    std::vector<char*> a;
    for (const auto& s : argv) a.push_back(const_cast<char*>(s.c_str()));
    a.push_back(nullptr);
    ::execvp(a[0], a.data());
    _exit(127);
  }
  int status = 0;
  if (::waitpid(pid, &status, 0) < 0) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Runs the embedded plot script with the first python3 that has matplotlib.
int Plot(const std::string& json_text, const std::string& png) {
  char dir[] = "/tmp/squashlab-plot-XXXXXX";
  if (::mkdtemp(dir) == nullptr) return 4;
  std::string script = std::string(dir) + "/plot.py",
              json = std::string(dir) + "/result.json";
  int rc = 3;
  if (WriteFile(script, BenchPlotScript()) && WriteFile(json, json_text)) {
    for (const char* py : {"python3", "/usr/bin/python3"}) {
      rc = RunProgram({py, script, json, png});
      if (rc == 0) break;
    }
  }
  std::remove(script.c_str());
  std::remove(json.c_str());
  ::rmdir(dir);
  if (rc == 3 || rc == 127)
    std::cerr
        << "squashlab bench: no python3 with matplotlib found: --plot skipped "
           "(apt-get install python3-matplotlib)\n";
  else if (rc != 0)
    std::cerr << "squashlab bench: the plot script failed (exit " << rc
              << ")\n";
  else
    std::cerr << "squashlab bench: wrote " << png << "\n";
  return rc;
}

int Calibrate(const std::string& cache, bool fit_only) {
  std::string dir = cache.empty() ? DefaultCacheDir() : cache;
  // --fit-only: refit the profiles over the committed codec costs (after a
  // model change), without measuring this machine again.
  auto host = fit_only ? StatusOr<HostCosts>(CommittedHostCosts())
                       : MeasureHostCosts(dir);
  if (!host.ok()) {
    std::cerr << "squashlab bench calibrate: " << host.status().ToString()
              << "\n";
    return 4;
  }
  std::cout << (fit_only ? "committed codec costs (ns per output byte):\n"
                         : "this machine (best of 3, ns per output byte):\n");
  for (const auto& [k, v] : host->codec_ns_per_byte)
    std::cout << "  " << k << " " << v << " (" << 1e3 / v << " MB/s)\n";
  std::cout << "  memcpy " << host->memcpy_ns_per_byte
            << "\nfits against the seeds:\n";
  auto fit = FitCpuProfiles(*host, dir, std::cout);
  if (!fit.ok()) {
    std::cerr << "squashlab bench calibrate: " << fit.status().ToString()
              << "\n";
    return 4;
  }
  std::cout << "(paste into bench/sim/calibration.cc to commit them)\n";
  return 0;
}

int RunBenchJob(const BenchArgs& args) {
  if (args.calibrate->parsed())
    return Calibrate(args.opt.cache_dir, args.fit_only);
  if (args.opt.scenario.empty())
    return UsageError("bench", "a SCENARIO is required (or calibrate)");
  BenchOptions opt = args.opt;
  opt.file_size = args.size_mib << 20;
  auto t0 = std::chrono::steady_clock::now();
  auto res = RunBench(opt, &std::cerr);
  if (!res.ok()) return UsageError("bench", res.status().ToString());
  double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
          .count();
  std::cout << FormatBenchText(*res);
  std::cerr << "squashlab bench " << opt.scenario << ": " << res->records.size()
            << " cells in " << secs << " s (wall clock, images included)\n";
  const std::string json_text = BenchToJson(*res);
  if (!args.json.empty() && !WriteFile(args.json, json_text)) {
    std::cerr << "squashlab bench: cannot write " << args.json << "\n";
    return kExitIo;
  }
  if (!args.csv.empty() && !WriteFile(args.csv, BenchToCsv(*res))) {
    std::cerr << "squashlab bench: cannot write " << args.csv << "\n";
    return kExitIo;
  }
  if (!args.plot.empty()) {
    int rc = Plot(json_text, args.plot);
    if (rc != 0 && rc != 3 && rc != 127) return kExitIo;
  }
  return kExitOk;
}

void AddBenchOptions(CLI::App* c, BenchArgs* a) {
  c->add_option("SCENARIO", a->opt.scenario, "the experiment to replay")
      ->check(CLI::IsMember(BenchScenarioNames()))
      ->type_name("");
  c->add_option("--profile", a->opt.profile,
                "the device and CPU (default: the scenario's own)")
      ->type_name("P")
      ->check(CLI::IsMember(BenchProfileNames()));
  c->add_option("--variant", a->opt.variants,
                "a read-path variant (repeatable; default: the "
                "scenario's)")
      ->type_name("V")
      ->check(CLI::IsMember(VariantNames()));
  c->add_option("--decomp", a->opt.decomps,
                "a decompressor strategy (repeatable; default: the "
                "scenario's)")
      ->type_name("D")
      ->check(CLI::IsMember(DecompNames()));
  c->add_option("--size", a->size_mib,
                "the file's size in MiB (default: the scenario's)")
      ->type_name("MIB")
      ->check(AtLeast(1));
  c->add_option("--jobs", a->opt.jobs,
                "run cells on N threads (results do not depend on it)")
      ->capture_default_str()
      ->type_name("N")
      ->check(AtLeast(1));
  c->add_flag("--small", a->opt.small, "a reduced grid (seconds)");
  c->add_option("--json", a->json,
                "write the result as JSON (docs/schema/bench.schema.json)")
      ->type_name("FILE")
      ->check(WritableFile());
  c->add_option("--csv", a->csv, "write one CSV row per cell")
      ->type_name("FILE")
      ->check(WritableFile());
  c->add_option("--plot", a->plot,
                "draw the result with bench/sim/plot.py (needs matplotlib)")
      ->type_name("FILE.png")
      ->check(PlotFile());
}

}  // namespace

void AddBenchCommand(CLI::App* root, CommandRunner* run) {
  auto args = std::make_shared<BenchArgs>();
  CLI::App* c = root->add_subcommand("bench",
                                     "Replay a seed thread's experiment in "
                                     "simulate mode on an emulated device.");
  AddBenchOptions(c, args.get());
  c->add_option("--cache", args->opt.cache_dir,
                "where the mksquashfs images are kept (default: "
                "$SQUASHLAB_BENCH_CACHE, else "
                "$TMPDIR/squashlab-bench-UID)")
      ->type_name("DIR")
      ->check(WritableDir());
  AddArenaOption(c);
  args->calibrate = c->add_subcommand("calibrate",
                                      "Measure this machine's codec costs and "
                                      "fit the profiles' CPUs to the seeds.");
  args->calibrate->add_flag(
      "--fit-only", args->fit_only,
      "refit over the committed codec costs, without measuring");
  args->calibrate
      ->add_option("--cache", args->opt.cache_dir, "where the images are kept")
      ->type_name("DIR")
      ->check(WritableDir());
  std::string scenarios = "Scenarios:\n";
  for (const auto& [name, what] : BenchScenarios())
    scenarios += "  " + name + ": " + what + "\n";
  c->footer(scenarios);
  c->require_subcommand(0, 1);
  c->callback([args, run] { *run = [args] { return RunBenchJob(*args); }; });
}

}  // namespace squashlab::cli
