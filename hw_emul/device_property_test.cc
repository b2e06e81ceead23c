// SPDX-License-Identifier: GPL-2.0-only
// This file implements the device's properties over random request streams
// and fault plans: every submitted bio completes exactly once, from
// interrupt context, with the image's bytes or an error the plan explains,
// and the counters agree with the stream. RapidCheck drives simulate mode;
// fixed seeds drive explore (random and PCT schedules) and threads.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

#include "hw_emul/block_device.h"
#include "hw_emul/testing/device_rig.h"
#include "model/base/rng.h"

namespace squashlab {
namespace {

using hwtest::Io;
using hwtest::Ios;

constexpr uint64_t kImage = 1 << 20;  // 2048 sectors

struct OpSpec {
  uint64_t sector = 0;
  unsigned bytes = 4096;
  int rw = READ;
};

struct BatchSpec {
  std::vector<OpSpec> ops;
  bool plugged = false;
  bool wait = true;
};

struct Stream {
  std::string profile = "emmc-hs200";
  std::string plan;
  std::vector<std::vector<BatchSpec>> tasks;  // one list of batches per task
};

OpSpec RandomOp(Rng& r) {
  OpSpec op;
  op.sector = r.Below(64) * 8;
  if (r.Below(40) == 0) op.sector = 2048 + r.Below(4) * 8;  // beyond the end
  op.bytes = static_cast<unsigned>(4096 * (1 + r.Below(4)));
  static const int kRw[] = {READ, READ, READ, READA, READA, READ_SYNC, WRITE};
  op.rw = kRw[r.Below(r.Below(10) == 0 ? 7 : 6)];
  return op;
}

Stream RandomStream(uint64_t seed, const std::string& profile,
                    const std::string& plan) {
  Rng r(seed);
  Stream s;
  s.profile = profile;
  s.plan = plan;
  s.tasks.resize(1 + r.Below(2));
  for (auto& task : s.tasks) {
    int batches = 1 + static_cast<int>(r.Below(6));
    for (int b = 0; b < batches; b++) {
      BatchSpec batch;
      batch.plugged = r.Below(2) == 0;
      batch.wait = r.Below(3) != 0;
      int n = 1 + static_cast<int>(r.Below(4));
      for (int i = 0; i < n; i++) batch.ops.push_back(RandomOp(r));
      task.push_back(batch);
    }
  }
  return s;
}

// One run of a stream: its device, its ios, and the scenario.
struct Trial {
  explicit Trial(const Stream& s) {
    DeviceOptions o;
    o.profile = s.profile;
    o.faults = *FaultPlan::Parse(s.plan);
    dev = std::make_unique<BlockDevice>(hwtest::PatternImage(kImage), o);
    for (const auto& task : s.tasks) {
      std::vector<std::vector<Io*>> batches;
      for (const BatchSpec& b : task) {
        batches.emplace_back();
        for (const OpSpec& op : b.ops)
          batches.back().push_back(ios.Make(op.sector, op.bytes, op.rw));
      }
      per_task.push_back(batches);
    }
    stream = s;
  }

  Scenario MakeScenario() {
    return Scenario{"hw_emul_stream", {}, [this](Kernel& k) {
                      for (size_t t = 0; t < per_task.size(); t++)
                        k.Spawn(TaskSpec{"dd", TaskContext::kProcess, -1, 0, 0,
                                         [this, t] { Body(t); }});
                    }};
  }

  void Body(size_t t) {
    std::vector<Io*> unwaited;
    for (size_t b = 0; b < per_task[t].size(); b++) {
      const BatchSpec& spec = stream.tasks[t][b];
      blk_plug plug;
      if (spec.plugged) blk_start_plug(&plug);
      for (Io* io : per_task[t][b]) hwtest::Submit(dev.get(), io);
      if (spec.plugged) blk_finish_plug(&plug);
      for (Io* io : per_task[t][b]) {
        if (spec.wait) {
          hwtest::Wait(io);
        } else {
          unwaited.push_back(io);
        }
      }
    }
    for (Io* io : unwaited) hwtest::Wait(io);
  }

  // Empty when every property holds; else what failed.
  std::string Check() {
    FaultPlan plan = *FaultPlan::Parse(stream.plan);
    bool may_fail = plan.eio > 0 || !plan.eio_sectors.empty() ||
                    plan.reada_drop > 0 || plan.short_completion > 0;
    auto flips = dev->flips();
    DeviceCounters c = dev->counters();
    uint64_t n = 0, failed = 0, ok_bytes = 0;
    for (Io& io : ios.all()) {
      n++;
      std::string at = " (sector " + std::to_string(io.sector) + ")";
      if (io.completions.load() != 1)
        return "completed " + std::to_string(io.completions.load()) + " times" +
               at;
      if (!io.in_irq) return "completed outside interrupt context" + at;
      if (io.error != 0 && io.error != -EIO) return "unexpected error" + at;
      bool rejected =
          io.rw == WRITE || io.sector + io.bytes / 512 > kImage / 512;
      if (rejected && io.error == 0)
        return "a write or out-of-range read succeeded" + at;
      if (!rejected && io.error != 0 && !may_fail)
        return "an error the plan does not explain" + at;
      if (io.error != 0) {
        failed++;
        continue;
      }
      ok_bytes += io.bytes;
      bool flipped = false;
      for (const FlipRecord& f : flips)
        flipped = flipped || (f.byte >= io.sector * 512 &&
                              f.byte < io.sector * 512 + io.bytes);
      if (!flipped && !hwtest::DataMatches(io))
        return "wrong bytes without a flip" + at;
    }
    if (c.bios_submitted != n || c.bios_completed != n)
      return "submitted/completed counters";
    if (c.bios_failed != failed) return "failed counter";
    if (c.bytes != ok_bytes) return "bytes counter";
    if (c.flips != flips.size()) return "flips counter";
    uint64_t queued = n - c.bios_rejected - c.reada_dropped;
    if (c.requests + c.merges + c.request_merges != queued)
      return "requests + merges != queued bios";
    uint64_t hist = 0;
    for (uint64_t h : c.depth_hist) hist += h;
    if (hist != c.requests) return "depth histogram does not sum to requests";
    if (c.fetch < c.requests) return "fewer fetches than requests";
    if (c.requests > 0 && c.idle == 0) return "host never went idle";
    return "";
  }

  Stream stream;
  std::unique_ptr<BlockDevice> dev;
  Ios ios;
  std::vector<std::vector<std::vector<Io*>>> per_task;
};

const char* const kProfiles[] = {"emmc-hs200", "kvm-hdb", "usb-stick",
                                 "qspi-flash", "nvme"};

std::string RandomPlan() {
  std::string plan;
  auto add = [&plan](const std::string& item) {
    plan += (plan.empty() ? "" : ";") + item;
  };
  if (*rc::gen::arbitrary<bool>())
    add("eio=" + std::to_string(*rc::gen::inRange(0, 6) / 10.0));
  if (*rc::gen::arbitrary<bool>())
    add("eio@sector=" + std::to_string(*rc::gen::inRange(0, 512)));
  if (*rc::gen::arbitrary<bool>())
    add("reada_drop=" + std::to_string(*rc::gen::inRange(0, 11) / 10.0));
  if (*rc::gen::arbitrary<bool>())
    add("congest=" + std::to_string(*rc::gen::inRange(0, 4)));
  if (*rc::gen::arbitrary<bool>())
    add("flip=" + std::to_string(*rc::gen::inRange(0, 6) / 10.0));
  if (*rc::gen::arbitrary<bool>())
    add("delay=0.5;delay_us=" + std::to_string(*rc::gen::inRange(0, 3000)));
  if (*rc::gen::arbitrary<bool>())
    add("reorder=" + std::to_string(*rc::gen::inRange(0, 6) / 10.0));
  if (*rc::gen::arbitrary<bool>())
    add("short=" + std::to_string(*rc::gen::inRange(0, 6) / 10.0));
  add("seed=" + std::to_string(*rc::gen::inRange(1, 1000)));
  return plan;
}

RC_GTEST_PROP(DeviceProp, EveryBioCompletesExactlyOnceInSimulate, ()) {
  const char* profile = *rc::gen::elementOf(
      std::vector<const char*>(std::begin(kProfiles), std::end(kProfiles)));
  std::string plan = RandomPlan();
  uint64_t seed = *rc::gen::inRange<uint64_t>(1, 1 << 30);
  RC_TAG(profile);
  Trial trial(RandomStream(seed, profile, plan));
  ScenarioOutcome out = hwtest::RunSimulate(trial.MakeScenario(), seed);
  RC_ASSERT(out.report.ToString() == Report().ToString());
  RC_ASSERT(out.ok());
  std::string why = trial.Check();
  if (!why.empty())
    RC_FAIL(why + " [stream seed " + std::to_string(seed) + ", plan " + plan +
            "]");
}

const char* const kPlan =
    "eio=0.1;reada_drop=0.4;flip=0.2;delay=0.3;delay_us=200;reorder=0.3;short="
    "0.2";

TEST(DeviceExecutors, ExploreRandomAndPctSchedules) {
  for (const char* strategy : {"random", "pct"}) {
    for (uint64_t seed = 1; seed <= 12; seed++) {
      Trial trial(RandomStream(seed, kProfiles[seed % 5], kPlan));
      RunResult r = hwtest::RunExplore(trial.MakeScenario(), seed, strategy);
      ASSERT_TRUE(r.completed) << strategy << " seed " << seed << "\n"
                               << r.report.ToString();
      EXPECT_EQ(trial.Check(), "") << strategy << " seed " << seed;
    }
  }
}

TEST(DeviceExecutors, ExploreMakesCompletionsSchedulable) {
  // Across seeds the interrupt runs at different points of the reader.
  std::vector<std::vector<int>> choices;
  for (uint64_t seed = 1; seed <= 6; seed++) {
    Trial trial(RandomStream(99, "emmc-hs200", ""));
    Explorer explorer;
    ExploreOptions opt;
    opt.strategy = "random";
    auto s = MakeStrategy(opt);
    RunResult r = explorer.RunOnce(trial.MakeScenario(), *s, seed, false);
    ASSERT_TRUE(r.completed) << r.report.ToString();
    choices.push_back(r.choices);
  }
  bool differ = false;
  for (auto& c : choices) differ = differ || c != choices[0];
  EXPECT_TRUE(differ);
}

TEST(DeviceExecutors, ThreadsShortRun) {
  for (uint64_t seed = 1; seed <= 3; seed++) {
    for (const char* profile : {"emmc-hs200", "nvme"}) {
      Trial trial(RandomStream(seed + 100, profile, seed == 1 ? "" : kPlan));
      ScenarioOutcome out = hwtest::RunThreads(trial.MakeScenario(), seed);
      ASSERT_TRUE(out.ok()) << profile << " seed " << seed << "\n"
                            << out.report.ToString();
      EXPECT_EQ(trial.Check(), "") << profile << " seed " << seed;
    }
  }
}

}  // namespace
}  // namespace squashlab
