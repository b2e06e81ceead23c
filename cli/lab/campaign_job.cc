// SPDX-License-Identifier: GPL-2.0-only
// This file implements the campaign job: parts on threads, checkpoints,
// signals, the table and the JSON.
#include "cli/lab/campaign_job.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <thread>

#include "cli/cli_status.h"
#include "cli/lab/model_choices.h"
#include "cli/lab/verify_expectations.h"
#include "harness/campaign/campaign_json.h"
#include "harness/campaign/campaign_merge.h"
#include "harness/campaign/campaign_progress.h"

namespace squashlab::cli {
namespace {

std::atomic<bool> g_stop{false};

extern "C" void OnStopSignal(int) { g_stop.store(true); }

std::string CheckpointOf(const CampaignJobArgs& args, int part) {
  if (args.checkpoint.empty() || args.jobs <= 1) return args.checkpoint;
  return args.checkpoint + "." + std::to_string(part);
}

// Cells whose verdict differs from the expectation, one line each.
// A shard of several need not find a violation expected of the whole.
std::vector<std::string> Unmet(const CampaignResult& r, const Expectations& e,
                               bool one_shard) {
  std::vector<std::string> out;
  for (const CampaignCell& c : r.cells) {
    auto it = e.find(c.variant);
    const bool want_fail = it != e.end() && it->second;
    const bool failed = !c.classes.empty();
    if (failed != want_fail && !(one_shard && !failed))
      out.push_back(c.variant + " x " + c.decomp + ": " +
                    (failed ? "a violation where none was expected"
                            : "no violation where one was expected"));
  }
  return out;
}

struct PartRun {
  int part = 0;
  CampaignResult resume;
  bool resumed = false;
  StatusOr<CampaignResult> result = Status::InvalidArgument("not run");
  Status saved = Status::Ok();
};

}  // namespace

std::string ParseShard(const std::string& text, int* index, int* total) {
  const size_t slash = text.find('/');
  char* end = nullptr;
  if (slash == std::string::npos) return "expected I/N, e.g. 0/4";
  const long i = std::strtol(text.c_str(), &end, 10);
  if (end != text.c_str() + slash) return "expected I/N, e.g. 0/4";
  const long n = std::strtol(text.c_str() + slash + 1, &end, 10);
  if (*end != '\0' || n < 1 || i < 0 || i >= n || n > 100000)
    return "expected I/N with 0 <= I < N";
  *index = static_cast<int>(i);
  *total = static_cast<int>(n);
  return "";
}

int RunCampaignJob(const CampaignJobArgs& args) {
  int index = 0, total = 1;
  if (!args.shard.empty()) {
    const std::string problem = ParseShard(args.shard, &index, &total);
    if (!problem.empty()) return UsageError(args.command, "--shard " + problem);
  } else {
    BazelShard(&index, &total);
  }
  if (args.jobs < 1) return UsageError(args.command, "--jobs must be >= 1");
  if (args.jobs > 1 && total > 1)
    return UsageError(args.command,
                      "--jobs and --shard split the same "
                      "search: give one of them");
  const std::vector<std::string> variants =
      args.opt.variants.empty() ? VariantNames() : args.opt.variants;
  Expectations expected = args.expect.empty() && args.opt.variants.empty()
                              ? DefaultExpectations(variants)
                              : AllClean(variants);
  for (const std::string& e : args.expect) {
    std::string problem = ParseExpectation(e, &expected);
    if (!problem.empty())
      return UsageError(args.command, "--expect " + problem);
  }
  std::string out = args.out;
  if (out.empty()) {
    if (const char* dir = std::getenv("TEST_UNDECLARED_OUTPUTS_DIR"))
      out = std::string(dir) + "/campaign-part-" + std::to_string(index) +
            "-of-" + std::to_string(total) + ".json";
  }
  const int parts = args.jobs > 1 ? args.jobs : total;
  std::vector<PartRun> runs(static_cast<size_t>(args.jobs > 1 ? args.jobs : 1));
  for (size_t k = 0; k < runs.size(); k++) {
    PartRun& run = runs[k];
    run.part = args.jobs > 1 ? static_cast<int>(k) : index;
    const std::string cp = CheckpointOf(args, run.part);
    if (cp.empty() || !std::filesystem::exists(cp)) continue;
    auto r = ReadCampaignJson(cp);
    if (!r.ok()) return Fail("", cp, r.status());
    run.resume = std::move(r).value();
    run.resumed = true;
  }
  g_stop.store(false);
  std::signal(SIGINT, OnStopSignal);
  std::signal(SIGTERM, OnStopSignal);
  // Local parts share the subtrees as they go (a part busy in a large one
  // leaves the next to the others); resumed, every subtree a part finished
  // or stopped in is claimed first.
  SubtreeClaims claims;
  if (runs.size() > 1) {
    for (const PartRun& run : runs) {
      if (!run.resumed) continue;
      for (size_t ci = 0; ci < run.resume.cells.size(); ci++) {
        const auto& searches = run.resume.cells[ci].searches;
        for (size_t si = 0; si < searches.size(); si++) {
          for (long k : searches[si].done) claims.Claim(ci, si, k);
          if (searches[si].cursor && searches[si].cursor->subtree >= 0)
            claims.Claim(ci, si, searches[si].cursor->subtree);
        }
      }
    }
  }
  CampaignProgressLine progress(runs.size(), args.opt.preemption_bound,
                                isatty(STDERR_FILENO) == 1);
  auto work = [&](PartRun& run, size_t slot) {
    CampaignOptions o;
    o.verify = args.opt;
    o.part = run.part;
    o.parts = parts;
    o.subtrees_per_part = args.subtrees_per_part;
    if (runs.size() > 1) o.claims = &claims;
    CampaignHooks hooks;
    hooks.stop = &g_stop;
    hooks.progress = [&progress, slot](const CampaignProgress& p) {
      progress.Update(slot, p);
    };
    const std::string cp = CheckpointOf(args, run.part);
    auto last = std::chrono::steady_clock::now();
    if (!cp.empty()) {
      hooks.committed = [&](const CampaignResult& r) {
        const auto now = std::chrono::steady_clock::now();
        if (now - last < std::chrono::seconds(2) && !r.finished()) return;
        last = now;
        Status st = WriteCampaignJson(cp, r);
        if (!st.ok()) run.saved = st;
      };
    }
    run.result = RunCampaign(o, run.resumed ? &run.resume : nullptr, hooks);
    if (run.result.ok() && !cp.empty()) {
      Status st = WriteCampaignJson(cp, run.result.value());
      if (!st.ok()) run.saved = st;
    }
  };
  if (runs.size() == 1) {
    work(runs[0], 0);
  } else {
    std::vector<std::thread> threads;
    for (size_t k = 0; k < runs.size(); k++)
      threads.emplace_back(work, std::ref(runs[k]), k);
    for (std::thread& t : threads) t.join();
  }
  progress.Stop();
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  std::vector<CampaignResult> results;
  for (PartRun& run : runs) {
    if (!run.result.ok())
      return UsageError(args.command, run.result.status().ToString());
    if (!run.saved.ok())
      return Fail("", CheckpointOf(args, run.part), run.saved);
    results.push_back(run.result.value());
  }
  auto merged = MergeCampaign(results);
  if (!merged.ok()) return UsageError(args.command, merged.status().ToString());
  const CampaignResult& written =
      runs.size() == 1 ? results.front() : merged->result;
  if (!out.empty()) {
    Status st = WriteCampaignJson(out, written);
    if (!st.ok()) return Fail("", out, st);
  }
  std::cout << FormatCampaignTable(merged.value());
  if (results.size() > 1) {  // how evenly the parts shared the work
    for (const CampaignResult& r : results) {
      long n = 0;
      for (const CampaignCell& c : r.cells) n += c.runs;
      std::cout << "  part " << r.part << ": " << n << " runs, "
                << static_cast<long>(r.seconds) << " s\n";
    }
  }
  if (g_stop.load()) {
    std::cout << "interrupted: "
              << (args.checkpoint.empty()
                      ? "the table counts the subtrees finished (no "
                        "--checkpoint to resume from)"
                      : "the checkpoint holds every run so far; the same "
                        "command resumes")
              << "\n";
    return 130;
  }
  const std::vector<std::string> unmet =
      Unmet(written, expected, runs.size() == 1 && total > 1);
  for (const std::string& u : unmet) std::cout << "unexpected: " << u << "\n";
  const bool finished = written.finished();
  if (!out.empty()) std::cout << "JSON: " << out << "\n";
  return unmet.empty() && finished ? kExitOk : 1;
}

}  // namespace squashlab::cli
