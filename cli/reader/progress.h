// SPDX-License-Identifier: GPL-2.0-only
// This file implements the progress display of `extract`: counters the
// workers bump, a bar redrawn on a terminal at most ten times a second, and
// the one-line summary printed at the end.
#ifndef SQUASHLAB_CLI_READER_PROGRESS_H_
#define SQUASHLAB_CLI_READER_PROGRESS_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace squashlab::cli {

// Thread-safe counters of finished regular files and their bytes.
struct ProgressCounters {
  std::atomic<uint64_t> files{0};
  std::atomic<uint64_t> bytes{0};
};

struct ExtractTotals {
  uint64_t files = 0;  // regular files, hard links excluded
  uint64_t dirs = 0;
  uint64_t symlinks = 0;
  uint64_t hard_links = 0;
  uint64_t specials = 0;  // fifos, sockets, device nodes
  uint64_t bytes = 0;     // of regular files
};

// "12.3 MB", "1.02 GB": decimal units, as MB/s is.
std::string FormatBytes(uint64_t bytes);
// One bar line of at most `width` columns, e.g.
// "[#####     ]  31,337/62,563 files  512 MB/1.02 GB  210 MB/s  ETA 0:03".
std::string RenderProgress(uint64_t files, uint64_t total_files, uint64_t bytes,
                           uint64_t total_bytes, double seconds, int width);
// "62563 files, 5568 dirs, 4357 symlinks, 1.02 GB in 3.41 s (299 MB/s)".
std::string RenderSummary(const ExtractTotals& done, double seconds);

// Redraws RenderProgress on `fd` from a thread of its own until Stop,
// which erases the line. Construct only when fd is a terminal.
class ProgressBar {
 public:
  ProgressBar(int fd, const ProgressCounters* counters, uint64_t total_files,
              uint64_t total_bytes);
  ~ProgressBar();  // Stop
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;
  void Stop();

 private:
  void Loop();
  void Draw();

  int fd_;
  const ProgressCounters* counters_;
  uint64_t total_files_;
  uint64_t total_bytes_;
  std::chrono::steady_clock::time_point start_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace squashlab::cli

#endif  // SQUASHLAB_CLI_READER_PROGRESS_H_
