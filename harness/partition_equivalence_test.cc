// SPDX-License-Identifier: GPL-2.0-only
// This file implements the equivalence test of the partitioned exhaustive
// search on the `pair` scenarios, at bounds where one process finishes
// quickly: for N in {1, 2, 3, 7} parts, the parts' merged outcome set
// equals the one process's, their complete runs add up to its count, their
// schedule digests to its digest, and the same report classes are found,
// the first of each at the same schedule. The one process is the plain
// search (no partition), observed here independently of the campaign code.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <thread>

#include "harness/campaign/campaign.h"
#include "harness/campaign/campaign_merge.h"
#include "harness/test_scenarios.h"
#include "model/base/rng.h"
#include "model/sched/exhaustive_strategy.h"

namespace squashlab {
namespace {

struct Single {
  long complete = 0, pruned = 0;
  uint64_t digest = 0;
  std::set<uint64_t> outcomes;
  std::map<std::string, std::string> first_token;  // class -> token
};

VerifyOptions Options(const std::string& variant, int bound,
                      std::vector<std::string> kernels) {
  return ExhaustivePair(variant, bound, std::move(kernels));
}

// The whole search in one process, as verify's exhaustive strategy walks it.
Single RunSingle(const VerifyOptions& v) {
  auto cells = MakeCells(v);
  EXPECT_TRUE(cells.ok()) << cells.status().ToString();
  Single s;
  Explorer e;
  const auto& scenarios = cells->front().scenarios;
  for (size_t si = 0; si < scenarios.size(); si++) {
    const RunSpec spec = scenarios[si];
    ExhaustiveStrategy strategy(v.preemption_bound, v.por, v.iterative);
    strategy.set_footprint(spec.footprint);
    for (;;) {
      uint64_t fp = 0;
      RunResult r = e.RunOnce(spec, strategy, v.seed, false, &fp);
      if (r.pruned) {
        s.pruned++;
      } else {
        s.complete++;
        uint64_t h = 1469598103934665603ULL ^ si;
        for (int x : r.choices)
          h = (h ^ static_cast<uint64_t>(x + 1)) * 1099511628211ULL;
        s.digest += Rng::Mix(h, si);
        s.outcomes.insert(Rng::Mix(fp, si));
      }
      for (const Report& rep : r.reports)
        s.first_token.emplace(
            std::string(ReportKindName(rep.kind)) + ": " + rep.title,
            r.Token(spec.name).ToString());
      if (!r.more) break;
    }
    EXPECT_FALSE(strategy.nondeterministic()) << spec.name;
  }
  return s;
}

void ExpectEquivalent(const std::string& variant, int bound,
                      const std::vector<std::string>& kernels) {
  const VerifyOptions v = Options(variant, bound, kernels);
  const Single single = RunSingle(v);
  ASSERT_GT(single.complete, 1) << variant;
  std::printf(
      "%s bound %d: %ld complete runs, %ld pruned, %zu outcomes, "
      "%zu classes\n",
      variant.c_str(), bound, single.complete, single.pruned,
      single.outcomes.size(), single.first_token.size());
  for (int n : {1, 2, 3, 7}) {
    std::vector<CampaignResult> parts;
    for (int i = 0; i < n; i++) {
      CampaignOptions o;
      o.verify = v;
      o.part = i;
      o.parts = n;
      auto r = RunCampaign(o, nullptr, CampaignHooks{});
      ASSERT_TRUE(r.ok()) << r.status().ToString();
      ASSERT_TRUE(r->finished());
      parts.push_back(std::move(r).value());
    }
    auto m = MergeCampaign(parts);
    ASSERT_TRUE(m.ok()) << m.status().ToString();
    ASSERT_TRUE(m->finished);
    const CampaignCell& cell = m->result.cells.front();
    const std::string what = variant + " bound " + std::to_string(bound) +
                             " in " + std::to_string(n) + " parts";
    EXPECT_EQ(cell.runs - cell.pruned, single.complete) << what;
    EXPECT_EQ(cell.pruned, single.pruned) << what;
    EXPECT_EQ(cell.digest, single.digest) << what;
    EXPECT_EQ(cell.outcomes, single.outcomes) << what;
    std::map<std::string, std::string> first;
    for (const CampaignClass& k : cell.classes)
      first.emplace(k.kind + ": " + k.title, k.token);
    EXPECT_EQ(first, single.first_token) << what;
  }
}

// Parts on threads that claim subtrees as they get to them (verify
// --jobs): whoever searches what, together they run the whole search.
TEST(PartitionEquivalence, ClaimingPartsOnThreads) {
  const VerifyOptions v = Options("file-cache-3.13", 1, {"debug"});
  const Single single = RunSingle(v);
  for (int n : {2, 3}) {
    SubtreeClaims claims;
    std::vector<StatusOr<CampaignResult>> results(
        static_cast<size_t>(n), Status::InvalidArgument("not run"));
    // Each part's progress: the claims of all parts against the total.
    std::vector<CampaignProgress> last(static_cast<size_t>(n));
    std::vector<char> over(static_cast<size_t>(n), 0);
    std::vector<std::thread> threads;
    for (int i = 0; i < n; i++)
      threads.emplace_back([&, i] {
        CampaignOptions o;
        o.verify = v;
        o.part = i;
        o.parts = n;
        o.claims = &claims;
        CampaignHooks hooks;
        const size_t slot = static_cast<size_t>(i);
        hooks.progress = [&, slot](const CampaignProgress& p) {
          if (p.subtrees_done > p.subtrees_owned) over[slot] = 1;
          last[slot] = p;
        };
        results[static_cast<size_t>(i)] = RunCampaign(o, nullptr, hooks);
      });
    for (std::thread& t : threads) t.join();
    long most = 0;
    for (int i = 0; i < n; i++) {
      const CampaignProgress& p = last[static_cast<size_t>(i)];
      EXPECT_TRUE(p.shared) << n;
      EXPECT_EQ(over[static_cast<size_t>(i)], 0) << "part " << i << " of " << n;
      most = std::max(most, p.subtrees_done);
      EXPECT_GT(p.subtrees_owned, n) << n;  // the scenario's, not a share
    }
    EXPECT_EQ(most, last.front().subtrees_owned) << n;  // all claimed
    std::vector<CampaignResult> parts;
    for (auto& r : results) {
      ASSERT_TRUE(r.ok()) << r.status().ToString();
      parts.push_back(std::move(r).value());
    }
    auto m = MergeCampaign(parts);
    ASSERT_TRUE(m.ok()) << m.status().ToString();
    const CampaignCell& cell = m->result.cells.front();
    EXPECT_EQ(cell.runs - cell.pruned, single.complete) << n;
    EXPECT_EQ(cell.pruned, single.pruned) << n;
    EXPECT_EQ(cell.digest, single.digest) << n;
    EXPECT_EQ(cell.outcomes, single.outcomes) << n;
  }
}

// One case a test, so that Bazel's shards run them side by side.
TEST(PartitionEquivalence, FileCacheBound1) {
  ExpectEquivalent("file-cache-3.13", 1, {"debug"});
}

TEST(PartitionEquivalence, AsyncFixedBound0) {
  ExpectEquivalent("async-fixed", 0, {"debug"});
}

TEST(PartitionEquivalence, Async2013Bound0BothKernels) {
  ExpectEquivalent("async-2013", 0, {"debug", "prod"});
}

TEST(PartitionEquivalence, Async2013Bound1) {
  ExpectEquivalent("async-2013", 1, {"debug"});
}

}  // namespace
}  // namespace squashlab
