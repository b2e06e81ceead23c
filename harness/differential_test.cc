// SPDX-License-Identifier: GPL-2.0-only
// This file implements the differential test of the hand-written port of
// today's read path (`readahead-mainline`) against the real fs/squashfs of
// Linux 6.12 (`linux-6.12`), both under 6.12's MM: on the same image,
// workloads and fault plans, over the same seeds, the two must reach the
// same verdicts (both clean), read the same bytes (each read is checked
// against the image by the workload) and leave the page cache in the same
// states when the workload is done: which pages of each file are cached,
// and whether each is uptodate, in error or locked. Where a fault plan
// picks requests by number, the two block layers (buffer_heads in the
// port, bios in the real code) fail different I/O, and where readers race
// at random offsets the states a sample of schedules reaches depend on how
// each implementation's steps interleave: only verdicts are compared there.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>

#include "harness/mount.h"
#include "harness/scenario_spec.h"
#include "harness/test_scenarios.h"
#include "model/kernel/kernel.h"
#include "model/kernel/page.h"
#include "model/sched/explorer.h"
#include "model/sched/strategy.h"

namespace squashlab {
namespace {

// "name: 0U 1U 2UL ..." per file with cached pages, in the mount's order
// (the real code's mount looks up only the files its workload reads).
std::string PageCacheSummary(const SquashfsMount& m) {
  std::ostringstream out;
  for (size_t i = 0; i < m.inodes.size(); i++) {
    if (m.inodes[i]->i_mapping->page_tree.empty()) continue;
    out << m.names[i] << ":";
    for (const auto& [index, p] : m.inodes[i]->i_mapping->page_tree) {
      out << ' ' << index;
      if (PageUptodate(p)) out << 'U';
      if (PageError(p)) out << 'E';
      if (PageLocked(p)) out << 'L';
    }
    out << '\n';
  }
  return out.str();
}

struct Outcomes {
  std::set<std::string> verdicts;
  std::set<std::string> page_cache;
};

Outcomes Explore(const std::string& variant, const std::string& workload,
                 const std::string& faults, int seeds) {
  Outcomes o;
  auto summary = std::make_shared<std::string>();
  auto sc = MakeScenario(
      ScenarioSpec{variant, "single", workload, faults, "", "", ""}, Image(),
      [summary](Kernel& k, SquashfsMount* m, BlockDevice*) {
        k.AtQuiescence([summary, m] { *summary = PageCacheSummary(*m); });
      });
  EXPECT_TRUE(sc.ok()) << sc.status().ToString();
  if (!sc.ok()) return o;
  Explorer explorer;
  for (int seed = 1; seed <= seeds; seed++) {
    auto strategy = MakeRandomStrategy();
    summary->clear();
    RunResult r = explorer.RunOnce(sc.value(), *strategy,
                                   static_cast<uint64_t>(seed), false);
    o.verdicts.insert(r.reports.empty() ? "clean" : r.report.title);
    o.page_cache.insert(*summary);
  }
  return o;
}

std::string Join(const std::set<std::string>& s) {
  std::string out;
  for (const auto& x : s) out += "---\n" + x;
  return out;
}

class Differential
    : public ::testing::TestWithParam<std::pair<std::string, std::string>> {};

TEST_P(Differential, PortAndRealCodeAgree) {
  const auto& [workload, faults] = GetParam();
  const int seeds = 40;
  Outcomes port = Explore("readahead-mainline", workload, faults, seeds);
  Outcomes real = Explore("linux-6.12", workload, faults, seeds);
  EXPECT_EQ(port.verdicts, std::set<std::string>{"clean"});
  EXPECT_EQ(real.verdicts, std::set<std::string>{"clean"});
  if (!faults.empty()) return;  // the block layers fail different requests
  // Readers at random offsets: which states a sample of schedules reaches
  // depends on how each implementation's steps interleave, so the sets of
  // two samples are not comparable; the verdicts are.
  if (workload == "rand" || workload == "straddle") return;
  EXPECT_EQ(port.page_cache, real.page_cache)
      << "port:\n"
      << Join(port.page_cache) << "\nlinux-6.12:\n"
      << Join(real.page_cache);
}

std::vector<std::pair<std::string, std::string>> Cases() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const char* w :
       {"dd", "dd2", "ddx2", "rand", "pair", "frag2", "straddle"}) {
    out.emplace_back(w, "");
    for (const std::string& f : FaultPlans()) out.emplace_back(w, f);
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Workloads, Differential, ::testing::ValuesIn(Cases()),
                         [](const auto& info) {
                           return info.param.first +
                                  (info.param.second.empty()
                                       ? std::string()
                                       : "_" + info.param.second);
                         });

}  // namespace
}  // namespace squashlab
