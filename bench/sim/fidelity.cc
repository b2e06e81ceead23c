// SPDX-License-Identifier: GPL-2.0-only
// This file implements the `fidelity` scenario: it runs the cells behind
// every figure of the 2013 thread that is visible in the seeds (Phillip's
// matrix on kvm-hdb, Chanho's dd on emmc-hs200, Minchan's sweep on the
// Nexus 4's eMMC), all with the committed per-profile constants, and lays
// each figure beside its prediction, the error and the mechanism
// (fidelity.h). Nothing in it is fitted: the calibrated rows say so.
#include "bench/sim/fidelity.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "bench/sim/bench_internal.h"
#include "harness/image_model.h"

namespace squashlab {
namespace {

// Phillip's 1024K table (the 2013 thread), columns Asyn/No Asyn x Single,
// Multi, Percpu; rows dd bs 4K..1024K.
constexpr double kSeed1024[9][6] = {
    {89.4, 97.5, 89.9, 98.1, 90.6, 99.1}, {89.9, 99.0, 89.7, 99.4, 90.3, 99.4},
    {90.6, 99.8, 90.8, 100, 90.2, 97.0},  {90.3, 98.7, 90.3, 98.0, 89.9, 101},
    {90.3, 97.6, 90.2, 97.1, 90.1, 99.7}, {90.4, 98.6, 90.2, 97.6, 90.7, 98.5},
    {89.7, 96.9, 89.8, 99.2, 90.2, 101},  {89.7, 98.9, 90.8, 98.1, 89.4, 97.8},
    {89.3, 98.0, 89.6, 98.6, 88.7, 96.4}};

constexpr double kMiB = 1048576.0 / 1e6;  // MB per MiB

const char* kMechRate =
    "device: per-request cost + bytes/bandwidth; CPU: gzip per byte x "
    "slowdown; one 3.13 readpage per block (bench/sim/README.md)";
const char* kMechHop =
    "the patch's end_io -> schedule_work -> kworker hop per block (KVM "
    "vCPU wake-up), no overlap: readpage is never called twice";
const char* kMechOverlap =
    "3.13 readahead: bs >= 64K hits the sequential path, the 2-block window "
    "keeps PG_readahead on a target page; the next block's I/O overlaps "
    "decompression";
const char* kMechCall =
    "dd's time per call on the Nexus 4 (fitted once to this column: "
    "read_syscall_ns) + one 3.13 readpage per 128K block on the eMMC";
const char* kMechCallOverlap =
    "dd's time per call (as before), held on the eMMC: the patch's "
    "readahead I/O queues behind it, only the next block's inflate "
    "overlaps; at 32K no async readahead, one hop per block";
const char* kMechNoOverlap =
    "3.13 readahead: bs <= 32K restarts the initial window each block; "
    "squashfs frees the marked page, no async readahead";

struct Cells {
  std::vector<CellJob> jobs;
  std::vector<CellResult> out;
  // (variant, decomp, block, bs) -> index
  std::map<
      std::tuple<std::string, std::string, std::string, uint32_t, uint64_t>,
      size_t>
      at;
  const CellResult& Get(const std::string& v, const std::string& d,
                        uint32_t block, uint64_t bs,
                        const std::string& profile = "kvm-hdb") const {
    return out[at.at({profile, v, d, block, bs})];
  }
  // `key`: the CPU profile's name when it differs from the device's.
  void Add(const CellJob& j, uint32_t block, const std::string& key = "") {
    at[{key.empty() ? j.spec.profile : key, j.spec.variant, j.spec.decomp,
        block, j.spec.dd_bs}] = jobs.size();
    jobs.push_back(j);
  }
};

double Penalty(double async, double sync) { return 100 * (1 - async / sync); }

FidelityRow Figure(std::string id, std::string source, std::string thread,
                   double value, double pred, std::string unit,
                   std::string role, std::string mech, double tol = 0.15) {
  FidelityRow r;
  r.id = std::move(id);
  r.source = std::move(source);
  r.thread = std::move(thread);
  r.lo = r.hi = value;
  r.pred_lo = r.pred_hi = pred;
  r.unit = std::move(unit);
  r.role = std::move(role);
  r.mechanism = std::move(mech);
  r.tolerance = tol;
  return r;
}

FidelityRow Range(std::string id, std::string source, std::string thread,
                  double lo, double hi, const std::vector<double>& pred,
                  std::string unit, std::string mech) {
  FidelityRow r = Figure(std::move(id), std::move(source), std::move(thread),
                         lo, 0, std::move(unit), "predicted", std::move(mech));
  r.hi = hi;
  r.pred_lo = *std::min_element(pred.begin(), pred.end());
  r.pred_hi = *std::max_element(pred.begin(), pred.end());
  return r;
}

double MeanRate(const Cells& c, const std::string& v, const std::string& d,
                uint32_t block, const std::vector<uint64_t>& bss) {
  double sum = 0;
  for (uint64_t bs : bss) sum += c.Get(v, d, block, bs).mbps;
  return sum / static_cast<double>(bss.size());
}

void AddKvmRows(const Cells& c, const std::vector<uint32_t>& blocks,
                const std::vector<uint64_t>& bss,
                const std::vector<std::string>& decomps,
                std::vector<FidelityRow>* rows) {
  const std::string P = "Phillip, KVM /dev/hdb";
  const uint32_t k1024 = 1024 << 10, k256 = 256 << 10, k128 = 128 << 10;
  double seed_sync = 0, seed_async = 0;
  std::vector<double> seed_pen;
  for (int r = 0; r < 9; r++) {
    seed_async += kSeed1024[r][0] / 9;
    seed_sync += kSeed1024[r][1] / 9;
    for (int s = 0; s < 3; s++)
      seed_pen.push_back(Penalty(kSeed1024[r][2 * s], kSeed1024[r][2 * s + 1]));
  }
  rows->push_back(Figure("kvm-1024k-sync", P,
                         "1024K table, No Asyn Single mean", seed_sync,
                         MeanRate(c, "sync-3.13", "single", k1024, bss), "MB/s",
                         "calibrated", kMechRate));
  rows->push_back(Figure("kvm-1024k-async", P, "1024K table, Asyn Single mean",
                         seed_async,
                         MeanRate(c, "async-2013", "single", k1024, bss),
                         "MB/s", "calibrated", kMechHop));
  // Penalties (async vs sync, same strategy and dd bs) per block size.
  std::map<uint32_t, std::vector<double>> pen;
  std::vector<double> gains_big, pen_small, worse;
  int better = 0, n = 0;
  for (uint32_t b : blocks)
    for (uint64_t bs : bss)
      for (const std::string& d : decomps) {
        double p = Penalty(c.Get("async-2013", d, b, bs).mbps,
                           c.Get("sync-3.13", d, b, bs).mbps);
        pen[b].push_back(p);
        n++;
        if (p < 0)
          better++;
        else
          worse.push_back(p);
        if (b == k128 && bs >= (64u << 10)) gains_big.push_back(-p);
        if (b == k128 && bs <= (32u << 10)) pen_small.push_back(p);
      }
  double lo = *std::min_element(seed_pen.begin(), seed_pen.end());
  double hi = *std::max_element(seed_pen.begin(), seed_pen.end());
  rows->push_back(Range("kvm-1024k-penalty", P,
                        "\"10% worse (1024K blocks)\"; the 1024K table's cells",
                        lo, hi, pen[k1024], "%", kMechHop));
  if (pen.count(512 << 10))
    rows->push_back(Range("kvm-512k-penalty", P,
                          "512K: async worse, between 10% and 44%", 10, 44,
                          pen[512 << 10], "%", kMechHop));
  rows->push_back(Figure("kvm-256k-penalty", P,
                         "\"a huge 44% worse (256K blocks)\"", 44,
                         *std::max_element(pen[k256].begin(), pen[k256].end()),
                         "%", "predicted", kMechHop));
  rows->push_back(Range("kvm-128k-small-bs", P,
                        "128K, dd bs <= 32K: worse, \"similar to the previous "
                        "results\" (10%..44%)",
                        10, 44, pen_small, "%", kMechNoOverlap));
  rows->push_back(Range("kvm-128k-big-bs", P,
                        "128K, dd bs >= 64K: better by \"7.9% to 16%\"", 7.9,
                        16, gains_big, "%", kMechOverlap));
  // Parallel readpages (ftrace): none at dd bs <= 32K, some from 64K.
  uint64_t small_par = 0, big_par = 0;
  for (uint64_t bs : bss) {
    const CellResult& r = c.Get("async-2013", "single", k128, bs);
    (bs <= (32u << 10) ? small_par : big_par) += r.c.readpage_io_in_flight;
  }
  rows->push_back(
      Figure("kvm-128k-ftrace-small", P,
             "ftrace, 128K, dd bs <= 32K: \"no parallel async "
             "readpage calls\" (readpages entered with I/O in flight)",
             0, static_cast<double>(small_par), "count", "predicted",
             kMechNoOverlap, 0));
  FidelityRow par =
      Figure("kvm-128k-ftrace-big", P,
             "ftrace, 128K, dd bs >= 64K: \"parallel asynchronous "
             "readpages\" (at least one)",
             1, std::min<double>(1, static_cast<double>(big_par)), "count",
             "predicted", kMechOverlap, 0);
  rows->push_back(par);
  double scale = 108.0 / n;  // the thread's 4 blocks x 9 bs x 3 strategies
  rows->push_back(
      Figure("kvm-count-better", P, "\"15 show an improvement\" (of 108)", 15,
             better * scale, "count", "predicted", kMechOverlap, 0));
  // The thread's "10%" is rounded: its own 1024K table goes down to `lo`.
  rows->push_back(Range("kvm-worse-range", P,
                        "\"93 show a performance decrease of between 10%-44%\" "
                        "(from the 1024K table's lowest)",
                        lo, 44, worse, "%", kMechHop));
  // "move to a 256K block filesystem, and gain a 74% performance boost"
  std::vector<double> boost;
  for (uint64_t bs : bss)
    boost.push_back(100 * (c.Get("sync-3.13", "single", k256, bs).mbps /
                               c.Get("sync-3.13", "single", k128, bs).mbps -
                           1));
  double mean_boost = 0;
  for (double x : boost) mean_boost += x / static_cast<double>(boost.size());
  rows->push_back(
      Figure("kvm-256k-vs-128k", P,
             "\"move to a 256K block filesystem, and gain a 74% "
             "performance boost\" (sync 256K / sync 128K, mean over dd bs)",
             74, mean_boost, "%", "calibrated",
             "the per-request cost of the emulated IDE disk: half "
             "the blocks, half the requests"));
}

void AddEmmcRows(const Cells& c, std::vector<FidelityRow>* rows) {
  const std::string C = "Chanho, Cortex-A9 + eMMC 4.5 HS200";
  const CellResult& s =
      c.Get("sync-3.13", "single", 128 << 10, 64 << 10, "emmc-hs200");
  const CellResult& a =
      c.Get("async-2013", "single", 128 << 10, 64 << 10, "emmc-hs200");
  const char* mech_idle =
      "mmc_queue_thread: idle when a request ends with none queued; the "
      "patch queues the next block while one is in flight";
  rows->push_back(Figure("emmc-before", C, "dd bs=64k before: 40.2MB/s", 40.2,
                         s.mbps / kMiB, "MiB/s", "calibrated", kMechRate));
  rows->push_back(Figure("emmc-after", C, "dd bs=64k after: 59.4MB/s", 59.4,
                         a.mbps / kMiB, "MiB/s", "predicted", kMechOverlap));
  rows->push_back(
      Figure("emmc-fetch-before", C, "mmcqd fetch without the patch", 920,
             static_cast<double>(s.c.fetch), "count", "predicted", mech_idle));
  rows->push_back(Figure("emmc-idle-before", C, "mmcqd idle without the patch",
                         460, static_cast<double>(s.c.idle), "count",
                         "predicted", mech_idle));
  rows->push_back(Figure("emmc-fetch-after", C, "mmcqd fetch with the patch",
                         918, static_cast<double>(a.c.fetch), "count",
                         "predicted", mech_idle));
  rows->push_back(Figure("emmc-idle-after", C, "mmcqd idle with the patch", 40,
                         static_cast<double>(a.c.idle), "count", "predicted",
                         mech_idle, -2));
}

void AddSweepRows(const Cells& c, std::vector<FidelityRow>* rows) {
  const std::string M = "Minchan, Nexus 4 eMMC";
  for (const SeedSweepPoint& s : kSeedSweep) {
    std::string bs = SizeName(s.bs);
    for (const char* v : {"sync-3.13", "async-2013"}) {
      bool before = std::string(v) == "sync-3.13";
      const CellResult& r = c.Get(v, "single", 128 << 10, s.bs, "emmc-nexus4");
      rows->push_back(
          Figure(std::string("nexus4-") + (before ? "before-" : "after-") + bs,
                 M, "dd bs=" + bs + (before ? " before" : " after"),
                 before ? s.before : s.after, r.mbps / kMiB, "MiB/s",
                 before ? "calibrated" : "predicted",
                 before ? kMechCall : kMechCallOverlap, 0.20));
    }
  }
}

}  // namespace

StatusOr<BenchResult> RunFidelity(const BenchOptions& opt,
                                  std::ostream* progress) {
  BenchResult res;
  res.scenario = "fidelity";
  res.profile = "kvm-hdb,emmc-hs200,emmc-nexus4";
  std::vector<uint32_t> blocks = {1024 << 10, 512 << 10, 256 << 10, 128 << 10};
  std::vector<uint64_t> bss = {4 << 10,   8 << 10,   16 << 10,
                               32 << 10,  64 << 10,  128 << 10,
                               256 << 10, 512 << 10, 1024 << 10};
  // The model's three strategies give the same rate for one dd (bench
  // phillip shows them equal to two decimals): single stands for all three
  // unless --decomp asks for more.
  std::vector<std::string> decomps =
      opt.decomps.empty() ? std::vector<std::string>{"single"} : opt.decomps;
  if (opt.small) {
    blocks = {1024 << 10, 256 << 10, 128 << 10};
    bss = {32 << 10, 64 << 10};
    decomps = {"single"};
  }
  Cells cells;
  // Phillip: kvm-hdb, the 22% text file.
  auto kvm_cpu = CpuFor("kvm-hdb");
  if (!kvm_cpu.ok()) return kvm_cpu.status();
  CostModel kvm_cost =
      MakeCostModel(*kvm_cpu, CommittedHostCosts(), ContentKind::kText22);
  res.setup.push_back(CalibrationRecord(*kvm_cpu, kvm_cost));
  uint64_t size =
      opt.file_size ? opt.file_size : (opt.small ? 4 << 20 : 16 << 20);
  for (uint32_t b : blocks) {
    BenchImageSpec is;
    is.block_size = b;
    is.file_size = size;
    auto img = LoadBenchImage(is, CacheDir(opt));
    if (!img.ok()) return img.status();
    for (uint64_t bs : bss)
      for (const std::string& d : decomps)
        for (const char* v : {"async-2013", "sync-3.13"}) {
          CellSpec s;
          s.variant = v;
          s.decomp = d;
          s.profile = "kvm-hdb";
          s.dd_bs = bs;
          s.ncpus = kvm_cpu->ncpus;
          s.read_syscall_ns = kvm_cpu->read_syscall_ns;
          s.read_syscall_on_device = kvm_cpu->read_syscall_on_device;
          SteadyStateSpan(&s, b);
          cells.Add({*img, s, kvm_cost, is}, b);
        }
  }
  // Chanho (emmc-hs200) and Minchan (emmc-nexus4): the 97%-random file.
  for (const char* profile : {"emmc-hs200", "emmc-nexus4"}) {
    auto cpu = CpuFor(profile);
    if (!cpu.ok()) return cpu.status();
    CostModel cost =
        MakeCostModel(*cpu, CommittedHostCosts(), ContentKind::kIncompressible);
    res.setup.push_back(CalibrationRecord(*cpu, cost));
    bool chanho = std::string(profile) == "emmc-hs200";
    BenchImageSpec is;
    is.content = ContentKind::kIncompressible;
    is.file_size = chanho ? (opt.small ? 8 << 20 : kSeedEmmcFileBytes)
                          : (opt.small ? 4 << 20 : 16 << 20);
    auto img = LoadBenchImage(is, CacheDir(opt));
    if (!img.ok()) return img.status();
    std::vector<uint64_t> sweep;
    if (chanho)
      sweep = {64 << 10};
    else
      for (const SeedSweepPoint& s : kSeedSweep) sweep.push_back(s.bs);
    for (uint64_t bs : sweep)
      for (const char* v : {"async-2013", "sync-3.13"}) {
        CellSpec s;
        s.variant = v;
        s.profile = cpu->Device();
        s.dd_bs = bs;
        s.ncpus = cpu->ncpus;
        s.read_syscall_ns = cpu->read_syscall_ns;
        s.read_syscall_on_device = cpu->read_syscall_on_device;
        cells.Add({*img, s, cost, is}, 128 << 10, profile);
      }
  }
  if (progress) *progress << cells.jobs.size() << " cells\n" << std::flush;
  cells.out = RunCells(cells.jobs, opt.jobs, progress);
  for (size_t i = 0; i < cells.out.size(); i++)
    if (!cells.out[i].failure.empty())
      return Status::IoError("fidelity cell " + cells.jobs[i].spec.variant +
                             " failed: " + cells.out[i].report);

  std::vector<FidelityRow> rows;
  AddKvmRows(cells, blocks, bss, decomps, &rows);
  AddEmmcRows(cells, &rows);
  AddSweepRows(cells, &rows);
  Status rt = AddRtRows(opt, &rows);
  if (!rt.ok()) return rt;
  BenchTable t;
  t.title =
      "The 2013 thread's visible figures beside the simulation "
      "(simulated; one set of constants per profile)";
  t.corner = "figure";
  t.columns = {"thread", "simulated", "error %", "within", "role"};
  for (const FidelityRow& r : rows) {
    BenchRecord rec = r.Record();
    auto get = [&](const char* k) {
      for (const auto& [key, v] : rec)
        if (key == k) {
          if (const auto* s = std::get_if<std::string>(&v)) return *s;
          return Fixed(std::get<double>(v), 1);
        }
      return std::string();
    };
    t.rows.push_back(
        {r.id,
         {get("thread_value") + " " + r.unit, get("predicted") + " " + r.unit,
          get("error_pct"), get("within"), r.role}});
    res.records.push_back(std::move(rec));
  }
  res.tables.push_back(std::move(t));
  int within = 0;
  for (const FidelityRow& r : rows) within += r.Within() ? 1 : 0;
  res.notes.push_back(std::to_string(within) + " of " +
                      std::to_string(rows.size()) +
                      " figures within their target; mechanisms and "
                      "sources: bench/sim/README.md");
  return res;
}

}  // namespace squashlab
