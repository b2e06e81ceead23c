// This file implements the verify tests: the oracle catches wrong bytes;
// every variant but async-2013 runs clean over a bounded budget of the
// default scenarios, with and without fault plans; async-2013 is caught,
// through the generic checks, in each failure class (the test passes when
// the bug is found); replay tokens reproduce their report.
#include <gtest/gtest.h>

#include <set>

#include "model/verify/verify.h"

namespace squashlab {
namespace {

std::shared_ptr<const ImageModel> Image() {
  auto img = DefaultImage();
  EXPECT_TRUE(img.ok()) << img.status().ToString();
  return img.value();
}

std::vector<Scenario> Scenarios(const std::string& v, const std::string& d,
                                const std::vector<std::string>& workloads,
                                const std::string& faults = "",
                                std::shared_ptr<const ImageModel> img = nullptr,
                                const std::string& device = "") {
  std::vector<Scenario> out;
  for (const auto& w : workloads) {
    auto sc = MakeScenario(ScenarioSpec{v, d, w, faults, device}, img ? img : Image());
    EXPECT_TRUE(sc.ok()) << sc.status().ToString();
    out.push_back(sc.value());
  }
  return out;
}

const std::vector<std::string> kCorrect = {"sync-3.13", "file-cache-3.13", "async-fixed",
                                           "readpages-cache", "readahead-mainline"};
const std::vector<std::string> kDecomps = {"single", "multi", "percpu", "percpu-locallock"};

TEST(Verify, EmbeddedImageHasTheScenarioFiles) {
  auto img = Image();
  ASSERT_GE(img->files.size(), 4u);
  bool tail = false, sparse = false, raw = false;
  for (const auto& f : img->files) {
    tail |= f.layout.has_tail;
    for (const auto& b : f.layout.blocks) {
      sparse |= b.stored_size == 0;
      raw |= b.stored_size != 0 && !b.compressed;
    }
  }
  EXPECT_TRUE(tail);
  EXPECT_TRUE(sparse);
  EXPECT_TRUE(raw);
}

TEST(Verify, OracleCatchesWrongBytes) {
  ImageModel bad = *Image();
  for (auto& f : bad.files) f.content[f.content.size() / 2] ^= 1;  // what a broken read returns
  auto img = std::make_shared<const ImageModel>(bad);
  VerifyOptions opt;
  opt.budget = 3;
  CellResult c = ExploreScenarios(Scenarios("sync-3.13", "single", {"dd"}, "", img), opt, 0);
  ASSERT_TRUE(c.found);
  EXPECT_EQ(c.failure.report.kind, ReportKind::kWrongData) << c.failure.report.ToString();
}

TEST(Verify, CorrectVariantsAreCleanOnTheDefaultScenarios) {
  VerifyOptions opt;
  opt.budget = 400;
  for (const auto& v : kCorrect) {
    for (const auto& d : kDecomps) {
      CellResult c = ExploreScenarios(Scenarios(v, d, DefaultWorkloads()), opt, 0);
      EXPECT_FALSE(c.found) << v << " x " << d << "\n" << c.minimised.report.ToString();
      EXPECT_EQ(c.runs, 400);
    }
  }
}

TEST(Verify, CorrectVariantsReturnTheBytesOrEioUnderFaults) {
  VerifyOptions opt;
  opt.budget = 150;
  for (const auto& faults : FaultPlans()) {
    for (const auto& v : kCorrect) {
      CellResult c =
          ExploreScenarios(Scenarios(v, "single", {"dd2", "rand", "reclaim"}, faults), opt, 0);
      EXPECT_FALSE(c.found) << v << " / " << faults << "\n" << c.minimised.report.ToString();
    }
  }
}

TEST(Verify, RandomStrategyAgreesOnTheCorrectVariants) {
  VerifyOptions opt;
  opt.budget = 100;
  opt.strategy = "random";
  for (const auto& v : kCorrect) {
    CellResult c = ExploreScenarios(Scenarios(v, "multi", {"dd2", "ddx2", "pair"}), opt, 0);
    EXPECT_FALSE(c.found) << v << "\n" << c.minimised.report.ToString();
  }
}

// The 2013 patch, through the generic checks only: a page left locked (the
// reader hangs), "VFS: brelse: Trying to free free buffer", a NULL pointer
// dereference, and use of the freed end_io association.
TEST(Verify, Async2013IsCaughtInEveryClass) {
  VerifyOptions opt;
  opt.budget = 8000;
  opt.strategy = "random";  // the faster one on these bugs (see README)
  opt.all_classes = true;
  opt.minimise_budget = 150;
  CellResult c = ExploreScenarios(Scenarios("async-2013", "single", {"rand"}), opt, 0);
  std::set<ReportKind> kinds;
  for (const auto& f : c.classes) {
    kinds.insert(f.failure.report.kind);
    EXPECT_TRUE(f.minimised.failed());
    EXPECT_TRUE(f.minimised.report.SameAs(f.failure.report));
  }
  EXPECT_TRUE(kinds.count(ReportKind::kHungTask));
  EXPECT_TRUE(kinds.count(ReportKind::kBrelseFreeBuffer));
  EXPECT_TRUE(kinds.count(ReportKind::kNullDereference));
  EXPECT_TRUE(kinds.count(ReportKind::kUseAfterFree));
}

// A failed read (I/O error) leaves the patch's pages locked forever: found
// on the first schedule, with no preemption at all.
TEST(Verify, Async2013HangsAfterAnIoError) {
  VerifyOptions opt;
  opt.budget = 50;
  CellResult c = ExploreScenarios(Scenarios("async-2013", "single", {"dd"}, "eio"), opt, 0);
  ASSERT_TRUE(c.found);
  EXPECT_EQ(c.minimised.report.kind, ReportKind::kHungTask);
  EXPECT_EQ(c.minimised.preemptions, 0);
  // The same plan on the synchronous read path: EIO to the reader, no hang.
  CellResult s = ExploreScenarios(Scenarios("sync-3.13", "single", {"dd"}, "eio"), opt, 0);
  EXPECT_FALSE(s.found) << s.minimised.report.ToString();
}

// The same scenarios over hw_emul devices (a real part's queue, merging,
// host controller and completions), including a 4K-sector device where the
// read path's buffers grow to the logical block size, and hw_emul's own
// fault plans: correct variants stay clean, async-2013 is still caught.
TEST(Verify, VariantsOnEmulatedDevices) {
  VerifyOptions opt;
  opt.budget = 60;
  for (const std::string dev : {"emmc-hs200", "usb-stick,bs=4096", "nvme,bs=512"}) {
    for (const auto& v : kCorrect) {
      CellResult c = ExploreScenarios(Scenarios(v, "multi", {"dd2", "ddx2"}, "", nullptr, dev), opt, 0);
      EXPECT_FALSE(c.found) << v << " on " << dev << "\n" << c.minimised.report.ToString();
      CellResult f = ExploreScenarios(
          Scenarios(v, "single", {"rand"}, "eio=0.2;reada_drop=0.3;short=0.1", nullptr, dev), opt, 0);
      EXPECT_FALSE(f.found) << v << " on " << dev << " with faults\n"
                            << f.minimised.report.ToString();
    }
  }
  opt.budget = 400;
  CellResult bad =
      ExploreScenarios(Scenarios("async-2013", "single", {"dd2"}, "", nullptr, "emmc-hs200"), opt, 0);
  EXPECT_TRUE(bad.found);
}

TEST(Verify, ScenarioNamesRoundTripWithDevices) {
  for (const ScenarioSpec& s : {ScenarioSpec{"sync-3.13", "single", "dd", "", ""},
                                ScenarioSpec{"sync-3.13", "multi", "dd", "eio", ""},
                                ScenarioSpec{"async-fixed", "single", "rand", "", "emmc-hs200"},
                                ScenarioSpec{"async-fixed", "single", "rand", "eio@sector=40;seed=3",
                                             "nvme,bs=4096"}}) {
    auto p = ScenarioSpec::Parse(s.Name());
    ASSERT_TRUE(p.ok()) << s.Name();
    EXPECT_EQ(p.value().Name(), s.Name());
    EXPECT_EQ(p.value().device, s.device);
    EXPECT_EQ(p.value().faults, s.faults);
    EXPECT_TRUE(MakeScenario(p.value(), Image()).ok()) << s.Name();
  }
  EXPECT_FALSE(MakeScenario(ScenarioSpec{"sync-3.13", "single", "dd", "", "floppy"}, Image()).ok());
  EXPECT_FALSE(
      MakeScenario(ScenarioSpec{"sync-3.13", "single", "dd", "", "nvme,bs=2048"}, Image()).ok());
  EXPECT_FALSE(MakeScenario(ScenarioSpec{"sync-3.13", "single", "dd", "eio=2", "nvme"}, Image()).ok());
  EXPECT_FALSE(MakeScenario(ScenarioSpec{"sync-3.13", "single", "dd", "eio=0.1", ""}, Image()).ok());
}

TEST(Verify, TokensReproduceTheirReport) {
  VerifyOptions opt;
  opt.budget = 200;
  CellResult c = ExploreScenarios(Scenarios("async-2013", "percpu", {"dd2"}), opt, 0);
  ASSERT_TRUE(c.found);
  for (const RunResult* r : {&c.failure, &c.minimised}) {
    auto replay = Repro(r->Token(c.scenario).ToString(), "", true);
    ASSERT_TRUE(replay.ok()) << replay.status().ToString();
    EXPECT_TRUE(replay.value().report.SameAs(r->report)) << replay.value().report.ToString();
    EXPECT_FALSE(replay.value().trace.events.empty());
  }
}

TEST(Verify, JobTableNamesEveryCell) {
  VerifyOptions opt;
  opt.variants = {"sync-3.13", "async-2013"};
  opt.decomps = {"single"};
  opt.budget = 20;
  auto r = RunVerify(opt, nullptr);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r.value().cells.size(), 2u);
  std::string table = FormatTable(r.value());
  EXPECT_NE(table.find("sync-3.13"), std::string::npos);
  EXPECT_NE(table.find("clean"), std::string::npos);
  EXPECT_NE(table.find("blocked for more than 120 seconds"), std::string::npos) << table;
  EXPECT_NE(ToJson(r.value(), opt).find("\"violations\":1"), std::string::npos);
  VerifyOptions bad;
  bad.variants = {"no-such"};
  EXPECT_FALSE(RunVerify(bad, nullptr).ok());
}

}  // namespace
}  // namespace squashlab
