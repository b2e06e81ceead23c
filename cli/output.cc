// SPDX-License-Identifier: GPL-2.0-only
// This file implements the output helpers.
#include "cli/output.h"

#include <sched.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

namespace squashlab::cli {

Status WriteAll(int fd, ByteSpan bytes, off_t offset) {
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = offset >= 0
                    ? pwrite(fd, bytes.data() + done, bytes.size() - done,
                             offset + static_cast<off_t>(done))
                    : write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Status::IoError(std::string("write: ") + std::strerror(errno));
    }
    done += static_cast<size_t>(n);
  }
  return Status::Ok();
}

int DefaultThreads() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    int n = CPU_COUNT(&set);
    if (n > 0) return n;
  }
  unsigned n = std::thread::hardware_concurrency();
  return n > 0 ? static_cast<int>(n) : 1;
}

namespace {
bool ParseThreads(const std::string& s, int* out) {
  if (s.empty() || s.size() > 3 ||
      s.find_first_not_of("0123456789") != std::string::npos)
    return false;
  int n = std::stoi(s);
  if (n < 1 || n > 256) return false;
  *out = n;
  return true;
}
}  // namespace

bool TakeThreadsOption(const std::vector<std::string>& args, int* threads,
                       std::vector<std::string>* rest) {
  *threads = DefaultThreads();
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] != "-p") {
      rest->push_back(args[i]);
      continue;
    }
    if (i + 1 == args.size() || !ParseThreads(args[i + 1], threads))
      return false;
    ++i;
  }
  return true;
}

}  // namespace squashlab::cli
