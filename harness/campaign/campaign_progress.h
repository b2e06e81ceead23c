// SPDX-License-Identifier: GPL-2.0-only
// This file implements the progress display of a campaign: each part's
// latest state, kept as the parts report it, and one line redrawn on a
// terminal (a line a minute in a log) — runs, rate, the cell and bound being
// searched, the subtrees done, and the time left once it can be estimated.
#ifndef SQUASHLAB_HARNESS_CAMPAIGN_CAMPAIGN_PROGRESS_H_
#define SQUASHLAB_HARNESS_CAMPAIGN_CAMPAIGN_PROGRESS_H_

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "harness/campaign/campaign.h"

namespace squashlab::cli {

// One part's latest state.
struct PartState {
  long runs = 0;  // since this process started
  size_t cell_index = 0, cells = 1;
  std::string cell;  // "variant x decomp"
  int level = 0;
  // The part's done and planned share of its scenario's subtrees, or, when
  // the parts claim subtrees as they go (`shared`), the claims of every
  // part and the scenario's total.
  long subtrees_done = 0, subtrees_owned = 0;
  bool shared = false;
};

// The fraction of the campaign done, in [0, 1], by cells and, within a
// cell, by subtrees (a rough measure: subtrees differ in size).
double CampaignFraction(const std::vector<PartState>& parts);

// "campaign: 12,345 runs (4,321/s), async-fixed x single (cell 3 of 20),
// bound 2 of 2, subtrees 12/40, ETA 0:42"; the ETA only once something
// is done.
std::string RenderCampaignProgress(const std::vector<PartState>& parts,
                                   int bound, double seconds);

class CampaignProgressLine {
 public:
  // Redraws one line on stderr every half second when `terminal`, else
  // (a log file, a pipe) writes a line a minute once a minute has passed.
  CampaignProgressLine(size_t parts, int bound, bool terminal);
  ~CampaignProgressLine();  // Stop
  // Called by part `part` after each run.
  void Update(size_t part, const CampaignProgress& p);
  void Stop();  // erases the line

 private:
  void Loop();

  std::mutex mu_;
  std::vector<PartState> parts_;
  int bound_;
  bool terminal_;
  std::atomic<bool> stop_{false};
  std::condition_variable woken_;  // by Stop
  std::thread thread_;
};

}  // namespace squashlab::cli

#endif  // SQUASHLAB_HARNESS_CAMPAIGN_CAMPAIGN_PROGRESS_H_
