// SPDX-License-Identifier: GPL-2.0-only
// This file implements the progress bar and the summary line. The bar's
// rate is the average since the start: steadier than a recent window when
// small files and large ones alternate.
#include "cli/reader/progress.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdio>

namespace squashlab::cli {
namespace {

std::string Grouped(uint64_t n) {
  const std::string digits = std::to_string(n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string Clock(double seconds) {
  const long s = static_cast<long>(seconds + 0.5);
  char buf[32];
  if (s >= 3600) {
    std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60,
                  s % 60);
  } else {
    std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
  }
  return buf;
}

int TerminalWidth(int fd) {
  struct winsize ws;
  if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  return 80;
}

}  // namespace

std::string FormatBytes(uint64_t bytes) {
  static const char* const kUnits[] = {"B", "kB", "MB", "GB", "TB", "PB"};
  double v = static_cast<double>(bytes);
  size_t u = 0;
  while (v >= 1000 && u + 1 < sizeof kUnits / sizeof kUnits[0]) {
    v /= 1000;
    ++u;
  }
  char buf[32];
  if (u == 0) {
    std::snprintf(buf, sizeof buf, "%llu B",
                  static_cast<unsigned long long>(bytes));
  } else {
    std::snprintf(buf, sizeof buf,
                  v < 10    ? "%.2f %s"
                  : v < 100 ? "%.1f %s"
                            : "%.0f %s",
                  v, kUnits[u]);
  }
  return buf;
}

std::string RenderProgress(uint64_t files, uint64_t total_files, uint64_t bytes,
                           uint64_t total_bytes, double seconds, int width) {
  const double rate = seconds > 0 ? static_cast<double>(bytes) / seconds : 0;
  std::string text = "  " + Grouped(files) + "/" + Grouped(total_files) +
                     " files  " + FormatBytes(bytes) + "/" +
                     FormatBytes(total_bytes) + "  " +
                     FormatBytes(static_cast<uint64_t>(rate)) + "/s";
  if (rate > 0 && bytes < total_bytes) {
    text += "  ETA " + Clock(static_cast<double>(total_bytes - bytes) / rate);
  }
  const int bar = width - static_cast<int>(text.size()) - 2;
  if (bar < 10)
    return text.substr(0, static_cast<size_t>(width > 0 ? width : 0));
  // Bytes drive the bar unless the tree holds no data at all.
  double frac =
      total_bytes > 0
          ? static_cast<double>(bytes) / static_cast<double>(total_bytes)
      : total_files > 0
          ? static_cast<double>(files) / static_cast<double>(total_files)
          : 1.0;
  if (frac > 1) frac = 1;
  const int filled = static_cast<int>(frac * bar);
  return "[" + std::string(static_cast<size_t>(filled), '#') +
         std::string(static_cast<size_t>(bar - filled), ' ') + "]" + text;
}

std::string RenderSummary(const ExtractTotals& done, double seconds) {
  char tail[96];
  const double mbps =
      seconds > 0 ? static_cast<double>(done.bytes) / 1e6 / seconds : 0;
  std::snprintf(tail, sizeof tail, " in %.2f s (%.0f MB/s)", seconds, mbps);
  std::string s = std::to_string(done.files) + " files, " +
                  std::to_string(done.dirs) + " dirs, " +
                  std::to_string(done.symlinks) + " symlinks, ";
  if (done.hard_links > 0)
    s += std::to_string(done.hard_links) + " hard links, ";
  if (done.specials > 0)
    s += std::to_string(done.specials) + " special files, ";
  return s + FormatBytes(done.bytes) + tail;
}

ProgressBar::ProgressBar(int fd, const ProgressCounters* counters,
                         uint64_t total_files, uint64_t total_bytes)
    : fd_(fd),
      counters_(counters),
      total_files_(total_files),
      total_bytes_(total_bytes),
      start_(std::chrono::steady_clock::now()),
      thread_([this] { Loop(); }) {}

ProgressBar::~ProgressBar() { Stop(); }

void ProgressBar::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stop_) return;
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
  static const char kErase[] = "\r\033[K";
  [[maybe_unused]] ssize_t n = write(fd_, kErase, sizeof kErase - 1);
}

void ProgressBar::Draw() {
  const double s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_)
          .count();
  const std::string line =
      "\r" + RenderProgress(counters_->files.load(), total_files_,
                            counters_->bytes.load(), total_bytes_, s,
                            TerminalWidth(fd_) - 1);
  [[maybe_unused]] ssize_t n = write(fd_, line.data(), line.size());
}

void ProgressBar::Loop() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!cv_.wait_for(lock, std::chrono::milliseconds(100),
                       [this] { return stop_; })) {
    lock.unlock();
    Draw();
    lock.lock();
  }
}

}  // namespace squashlab::cli
