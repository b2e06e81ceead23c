// SPDX-License-Identifier: GPL-2.0-only
// This file implements the `phillip` scenario: the 2013 thread's matrix of gzip
// block sizes x dd bs x {async patch, mainline} x {single, multi, percpu}
// on the kvm-hdb profile, plus the other variants as extra columns, with
// the visible 1024K table beside the simulation and the thread's summary
// claims about the withheld tables checked against the predictions.
#include <algorithm>
#include <cmath>
#include <map>

#include "bench/sim/bench_internal.h"
#include "harness/image_model.h"

namespace squashlab {
namespace {

// the 2013 thread, Phillip's 1024K table (MB/s), rows 4K..1024K; columns Asyn
// Single, No Asyn Single, Asyn Multi, No Asyn Multi, Asyn Percpu, No Asyn
// Percpu. The 512K/256K/128K tables are withheld.
constexpr double kSeed1024[9][6] = {
    {89.4, 97.5, 89.9, 98.1, 90.6, 99.1}, {89.9, 99.0, 89.7, 99.4, 90.3, 99.4},
    {90.6, 99.8, 90.8, 100, 90.2, 97.0},  {90.3, 98.7, 90.3, 98.0, 89.9, 101},
    {90.3, 97.6, 90.2, 97.1, 90.1, 99.7}, {90.4, 98.6, 90.2, 97.6, 90.7, 98.5},
    {89.7, 96.9, 89.8, 99.2, 90.2, 101},  {89.7, 98.9, 90.8, 98.1, 89.4, 97.8},
    {89.3, 98.0, 89.6, 98.6, 88.7, 96.4}};

const char* Cap(const std::string& d) {
  if (d == "single") return "Single";
  if (d == "multi") return "Multi";
  if (d == "percpu") return "Percpu";
  return d.c_str();
}

struct Column {
  std::string name, variant, decomp;
};

std::vector<Column> Columns(const BenchOptions& opt) {
  std::vector<std::string> variants = opt.variants;
  if (variants.empty())
    variants =
        opt.small ? std::vector<std::string>{"async-2013", "sync-3.13"}
                  : std::vector<std::string>{
                        "async-2013",  "sync-3.13",       "file-cache-3.13",
                        "async-fixed", "readpages-cache", "readahead-mainline"};
  std::vector<std::string> decomps = opt.decomps;
  if (decomps.empty())
    decomps = opt.small ? std::vector<std::string>{"single"}
                        : std::vector<std::string>{"single", "multi", "percpu"};
  auto has = [&](const char* v) {
    return std::count(variants.begin(), variants.end(), v) > 0;
  };
  std::vector<Column> cols;
  for (const auto& d : decomps) {
    if (has("async-2013"))
      cols.push_back({std::string("Asyn ") + Cap(d), "async-2013", d});
    if (has("sync-3.13"))
      cols.push_back({std::string("No Asyn ") + Cap(d), "sync-3.13", d});
  }
  for (const auto& v : variants) {
    if (v == "async-2013" || v == "sync-3.13") continue;
    for (const auto& d :
         opt.decomps.empty() ? std::vector<std::string>{"single"} : decomps)
      cols.push_back({v + "/" + d, v, d});
  }
  return cols;
}

double Mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return v.empty() ? 0 : s / static_cast<double>(v.size());
}

}  // namespace

StatusOr<BenchResult> RunPhillip(const BenchOptions& opt,
                                 std::ostream* progress) {
  auto start = StartScenario(opt, "phillip", "kvm-hdb", ContentKind::kText22);
  if (!start.ok()) return start.status();
  BenchResult res = std::move(start->res);
  const CpuProfile* cpu = &start->cpu;
  const CostModel cost = start->cost;
  std::vector<uint32_t> blocks = {1024 << 10, 512 << 10, 256 << 10, 128 << 10,
                                  64 << 10};
  std::vector<uint64_t> bss = {4 << 10,   8 << 10,   16 << 10,
                               32 << 10,  64 << 10,  128 << 10,
                               256 << 10, 512 << 10, 1024 << 10};
  if (opt.small) {
    blocks = {1024 << 10, 128 << 10};
    bss = {4 << 10, 64 << 10, 1024 << 10};
  }
  uint64_t size =
      opt.file_size ? opt.file_size : (opt.small ? 4 << 20 : 16 << 20);
  std::vector<Column> cols = Columns(opt);
  std::vector<CellJob> jobs;
  std::map<uint32_t, std::shared_ptr<const ImageModel>> images;
  for (uint32_t b : blocks) {
    BenchImageSpec is;
    is.block_size = b;
    is.file_size = size;
    if (progress) *progress << "image " << is.Key() << "\n" << std::flush;
    auto img = LoadBenchImage(is, CacheDir(opt));
    if (!img.ok()) return img.status();
    images[b] = *img;
    res.setup.push_back(
        {{"image", is.Key()},
         {"file_bytes", size},
         {"image_bytes", static_cast<uint64_t>((*img)->bytes.size())},
         {"ratio", static_cast<double>((*img)->bytes.size()) / size}});
    for (uint64_t bs : bss)
      for (const Column& c : cols) {
        CellSpec s;
        s.variant = c.variant;
        s.decomp = c.decomp;
        s.profile = cpu->Device();
        s.dd_bs = bs;
        s.ncpus = cpu->ncpus;
        s.read_syscall_ns = cpu->read_syscall_ns;
        s.read_syscall_on_device = cpu->read_syscall_on_device;
        SteadyStateSpan(&s, b);
        jobs.push_back({*img, s, cost, is});
      }
  }
  std::vector<CellResult> out = RunCells(jobs, opt.jobs, progress);
  // Tables in the thread's layout; the seed's 1024K table beside its twin.
  std::map<std::pair<uint32_t, std::string>, std::vector<double>>
      by_col;  // (block, col) -> MB/s
  size_t i = 0;
  for (uint32_t b : blocks) {
    BenchTable t;
    t.title = "Squashfs: gzip filesystem " + SizeName(b) +
              " blocks (simulated, " + res.profile + ", MB/s)";
    t.corner = "dd bs";
    for (const Column& c : cols) t.columns.push_back(c.name);
    for (uint64_t bs : bss) {
      std::vector<std::string> row;
      for (const Column& c : cols) {
        row.push_back(out[i].Cell());
        by_col[{b, c.name}].push_back(out[i].failure.empty() ? out[i].mbps
                                                             : NAN);
        BenchRecord rec = CellRecord(jobs[i], out[i]);
        rec.insert(rec.begin(), {"column", c.name});
        rec.insert(rec.begin(), {"table", SizeName(b)});
        res.records.push_back(std::move(rec));
        i++;
      }
      t.rows.push_back({SizeName(bs), row});
    }
    res.tables.push_back(std::move(t));
  }
  // The visible 1024K table against the simulation (the calibration check).
  if (!opt.small) {
    BenchTable seed;
    seed.title =
        "Squashfs: gzip filesystem 1024K blocks (the 2013 thread, measured on "
        "KVM, MB/s)";
    seed.corner = "dd bs";
    seed.columns = {"Asyn Single",   "No Asyn Single", "Asyn Multi",
                    "No Asyn Multi", "Asyn Percpu",    "No Asyn Percpu"};
    for (int r = 0; r < 9; r++) {
      std::vector<std::string> row;
      for (int c = 0; c < 6; c++) row.push_back(Fixed(kSeed1024[r][c], 1));
      seed.rows.push_back({SizeName(bss[r]), row});
    }
    res.tables.push_back(std::move(seed));
    for (int c = 0; c < 6; c++) {
      std::vector<double> col;
      for (int r = 0; r < 9; r++) col.push_back(kSeed1024[r][c]);
      auto it = by_col.find({1024 << 10, res.tables.back().columns[c]});
      if (it == by_col.end()) continue;
      res.notes.push_back("1024K " + res.tables.back().columns[c] +
                          ": seed mean " + Fixed(Mean(col), 2) +
                          ", simulated mean " + Fixed(Mean(it->second), 2));
    }
  }
  // The thread's summary of the withheld tables against the predictions.
  for (uint32_t b : blocks) {
    for (const char* d : {"Single", "Multi", "Percpu"}) {
      auto a = by_col.find({b, std::string("Asyn ") + d});
      auto s = by_col.find({b, std::string("No Asyn ") + d});
      if (a == by_col.end() || s == by_col.end()) continue;
      std::string line = SizeName(b) + " " + d + ": async/sync by dd bs";
      for (size_t k = 0; k < bss.size(); k++)
        line += " " + SizeName(bss[k]) + "=" +
                (std::isnan(a->second[k])
                     ? std::string("fail")
                     : Fixed(100 * (a->second[k] / s->second[k] - 1), 1) + "%");
      res.notes.push_back(line);
    }
  }
  return res;
}

}  // namespace squashlab
