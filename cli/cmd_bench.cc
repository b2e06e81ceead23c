// This file implements `squashlab bench`: the seed threads' experiments
// replayed in simulate mode on emulated devices (bench/sim/), printed as
// tables and optionally written as JSON, CSV and a PNG plot (through
// bench/sim/plot.py, embedded; without matplotlib the command says so and
// still succeeds). `squashlab bench calibrate` measures this machine's
// codec costs and fits the profiles' CPUs to the seeds again.
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "bench/sim/bench.h"
#include "bench/sim/calibration.h"

namespace squashlab {
const char* BenchPlotScript();  // plot_py.cc (generated from bench/sim/plot.py)
}

namespace squashlab::cli {
namespace {

constexpr const char* kBenchUsage =
    "usage: squashlab bench SCENARIO [--profile P] [--variant V]... [--decomp D]...\n"
    "                       [--json FILE] [--csv FILE] [--plot FILE.png] [--size MIB]\n"
    "                       [--jobs N] [--small] [--cache DIR]\n"
    "       squashlab bench calibrate [--fit-only] [--cache DIR]\n"
    "scenarios:\n";

int Usage(const std::string& problem) {
  if (!problem.empty()) std::cerr << "squashlab bench: " << problem << "\n";
  std::cerr << kBenchUsage;
  for (const auto& [name, what] : squashlab::BenchScenarios())
    std::cerr << "  " << name << std::string(12 - std::min<size_t>(name.size(), 11), ' ') << what
              << "\n";
  std::cerr << "  --jobs N    run cells on N threads (results do not depend on it)\n"
               "  --small     a reduced grid (seconds)\n"
               "  --cache DIR where the mksquashfs images are kept (default "
            << squashlab::DefaultCacheDir() << ")\n";
  return 2;
}

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
  std::string script = std::string(dir) + "/plot.py", json = std::string(dir) + "/result.json";
  int rc = 3;
  if (WriteFile(script, squashlab::BenchPlotScript()) && WriteFile(json, json_text)) {
    for (const char* py : {"python3", "/usr/bin/python3"}) {
      rc = RunProgram({py, script, json, png});
      if (rc == 0) break;
    }
  }
  std::remove(script.c_str());
  std::remove(json.c_str());
  ::rmdir(dir);
  if (rc == 3 || rc == 127)
    std::cerr << "squashlab bench: no python3 with matplotlib found: --plot skipped "
                 "(apt-get install python3-matplotlib)\n";
  else if (rc != 0)
    std::cerr << "squashlab bench: the plot script failed (exit " << rc << ")\n";
  else
    std::cerr << "squashlab bench: wrote " << png << "\n";
  return rc;
}

int Calibrate(const std::string& cache, bool fit_only) {
  std::string dir = cache.empty() ? squashlab::DefaultCacheDir() : cache;
  // --fit-only: refit the profiles over the committed codec costs (after a
  // model change), without measuring this machine again.
  auto host = fit_only ? squashlab::StatusOr<squashlab::HostCosts>(squashlab::CommittedHostCosts())
                       : squashlab::MeasureHostCosts(dir);
  if (!host.ok()) {
    std::cerr << "squashlab bench calibrate: " << host.status().ToString() << "\n";
    return 4;
  }
  std::cout << (fit_only ? "committed codec costs (ns per output byte):\n"
                         : "this machine (best of 3, ns per output byte):\n");
  for (const auto& [k, v] : host->codec_ns_per_byte)
    std::cout << "  " << k << " " << v << " (" << 1e3 / v << " MB/s)\n";
  std::cout << "  memcpy " << host->memcpy_ns_per_byte << "\nfits against the seeds:\n";
  auto fit = squashlab::FitCpuProfiles(*host, dir, std::cout);
  if (!fit.ok()) {
    std::cerr << "squashlab bench calibrate: " << fit.status().ToString() << "\n";
    return 4;
  }
  std::cout << "(paste into bench/sim/calibration.cc to commit them)\n";
  return 0;
}

}  // namespace

int RunBenchCommand(const std::vector<std::string>& args) {
  if (args.empty()) return Usage("");
  squashlab::BenchOptions opt;
  opt.scenario = args[0];
  std::string json, csv, plot;
  bool fit_only = false;
  for (size_t i = 1; i < args.size(); i++) {
    const std::string& a = args[i];
    auto value = [&](std::string* out) {
      if (i + 1 >= args.size()) return false;
      *out = args[++i];
      return true;
    };
    std::string v;
    if (a == "--profile" && value(&v)) opt.profile = v;
    else if (a == "--variant" && value(&v)) opt.variants.push_back(v);
    else if (a == "--decomp" && value(&v)) opt.decomps.push_back(v);
    else if (a == "--json" && value(&v)) json = v;
    else if (a == "--csv" && value(&v)) csv = v;
    else if (a == "--plot" && value(&v)) plot = v;
    else if (a == "--cache" && value(&v)) opt.cache_dir = v;
    else if (a == "--fit-only") fit_only = true;
    else if (a == "--size" && value(&v)) opt.file_size = std::strtoull(v.c_str(), nullptr, 10) << 20;
    else if (a == "--jobs" && value(&v)) opt.jobs = std::max(1, std::atoi(v.c_str()));
    else if (a == "--small") opt.small = true;
    else return Usage("bad argument '" + a + "'");
  }
  if (opt.scenario == "calibrate") return Calibrate(opt.cache_dir, fit_only);
  auto t0 = std::chrono::steady_clock::now();
  auto res = squashlab::RunBench(opt, &std::cerr);
  if (!res.ok()) return Usage(res.status().ToString());
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << squashlab::FormatBenchText(*res);
  std::cerr << "squashlab bench " << opt.scenario << ": " << res->records.size() << " cells in "
            << secs << " s (wall clock, images included)\n";
  std::string json_text = squashlab::BenchToJson(*res);
  if (!json.empty() && !WriteFile(json, json_text)) {
    std::cerr << "squashlab bench: cannot write " << json << "\n";
    return 4;
  }
  if (!csv.empty() && !WriteFile(csv, squashlab::BenchToCsv(*res))) {
    std::cerr << "squashlab bench: cannot write " << csv << "\n";
    return 4;
  }
  if (!plot.empty()) Plot(json_text, plot);
  return 0;
}

}  // namespace squashlab::cli
