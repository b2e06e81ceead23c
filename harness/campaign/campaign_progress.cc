// SPDX-License-Identifier: GPL-2.0-only
// This file implements the campaign's progress line.
#include "harness/campaign/campaign_progress.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>

namespace squashlab::cli {
namespace {

std::string Grouped(long n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); i++) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string Clock(double seconds) {
  long s = static_cast<long>(seconds + 0.5);
  char buf[32];
  if (s >= 3600)
    std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60,
                  s % 60);
  else
    std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
  return buf;
}

}  // namespace

double CampaignFraction(const std::vector<PartState>& parts) {
  if (parts.empty()) return 0;
  double sum = 0;
  for (const PartState& p : parts) {
    double in_cell = p.subtrees_owned > 0
                         ? static_cast<double>(p.subtrees_done) /
                               static_cast<double>(p.subtrees_owned)
                         : 0;
    sum += (static_cast<double>(p.cell_index) + in_cell) /
           static_cast<double>(p.cells == 0 ? 1 : p.cells);
  }
  return sum / static_cast<double>(parts.size());
}

std::string RenderCampaignProgress(const std::vector<PartState>& parts,
                                   int bound, double seconds) {
  long runs = 0, done = 0, owned = 0;
  const PartState* first = parts.empty() ? nullptr : &parts.front();
  for (const PartState& p : parts) {
    runs += p.runs;
    if (first != nullptr && p.cell_index < first->cell_index) first = &p;
  }
  for (const PartState& p : parts) {
    if (first == nullptr || p.cell_index != first->cell_index) continue;
    if (p.shared) {  // every part counts the whole scenario's claims
      done = std::max(done, p.subtrees_done);
      owned = std::max(owned, p.subtrees_owned);
    } else {
      done += p.subtrees_done;
      owned += p.subtrees_owned;
    }
  }
  std::string line = "campaign: " + Grouped(runs) + " runs";
  if (seconds > 0)
    line += " (" + Grouped(static_cast<long>(runs / seconds)) + "/s)";
  if (first != nullptr && !first->cell.empty()) {
    line += ", " + first->cell + " (cell " +
            std::to_string(first->cell_index + 1) + " of " +
            std::to_string(first->cells) + "), bound " +
            std::to_string(first->level) + " of " + std::to_string(bound) +
            ", subtrees " + std::to_string(done) + "/" + std::to_string(owned);
  }
  const double f = CampaignFraction(parts);
  if (f > 0 && f < 1) line += ", ETA " + Clock(seconds * (1 - f) / f);
  return line;
}

CampaignProgressLine::CampaignProgressLine(size_t parts, int bound,
                                           bool terminal)
    : parts_(parts), bound_(bound), terminal_(terminal) {
  thread_ = std::thread([this] { Loop(); });
}

CampaignProgressLine::~CampaignProgressLine() { Stop(); }

void CampaignProgressLine::Update(size_t part, const CampaignProgress& p) {
  std::lock_guard<std::mutex> lock(mu_);
  PartState& s = parts_[part];
  s.runs = p.session_runs;
  if (s.cell_index != p.cell_index || s.cell.empty())
    s.cell = p.cell->variant + " x " + p.cell->decomp;
  s.cell_index = p.cell_index;
  s.cells = p.cells;
  s.level = p.level;
  s.subtrees_done = p.subtrees_done;
  s.subtrees_owned = p.subtrees_owned;
  s.shared = p.shared;
}

void CampaignProgressLine::Loop() {
  const auto start = std::chrono::steady_clock::now();
  auto logged = start;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mu_);
      if (woken_.wait_for(lock, std::chrono::milliseconds(500),
                          [this] { return stop_.load(); }))
        return;
    }
    if (!terminal_) {
      const auto now = std::chrono::steady_clock::now();
      if (now - logged < std::chrono::minutes(1)) continue;
      logged = now;
    }
    std::string line;
    {
      std::lock_guard<std::mutex> lock(mu_);
      line =
          RenderCampaignProgress(parts_, bound_,
                                 std::chrono::duration<double>(
                                     std::chrono::steady_clock::now() - start)
                                     .count());
    }
    if (!terminal_) {
      std::cerr << line << std::endl;
      continue;
    }
    if (line.size() > 150) line.resize(150);
    std::cerr << "\r\033[K" << line << std::flush;
  }
}

void CampaignProgressLine::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stop_.exchange(true)) return;
  }
  woken_.notify_all();
  thread_.join();
  if (terminal_) std::cerr << "\r\033[K" << std::flush;
}

}  // namespace squashlab::cli
