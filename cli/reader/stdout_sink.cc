// SPDX-License-Identifier: GPL-2.0-only
// This file implements stdout writes that tell a closed pipe (EPIPE) from
// other write errors.
#include "cli/reader/stdout_sink.h"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>

namespace squashlab::cli {
namespace {

std::atomic<bool> stdout_closed{false};

Status WriteError(int err) {
  if (err == EPIPE) stdout_closed = true;
  return Status::IoError(std::string("write to stdout: ") + std::strerror(err));
}

}  // namespace

void IgnoreSigpipe() { std::signal(SIGPIPE, SIG_IGN); }

Status WriteStdout(ByteSpan bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = write(STDOUT_FILENO, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return WriteError(errno);
    }
    done += static_cast<size_t>(n);
  }
  return Status::Ok();
}

Status PrintLine(const std::string& line) {
  if (std::fwrite(line.data(), 1, line.size(), stdout) != line.size() ||
      std::fputc('\n', stdout) == EOF)
    return WriteError(errno);
  return Status::Ok();
}

Status FlushStdout() {
  if (std::fflush(stdout) != 0) return WriteError(errno);
  return Status::Ok();
}

bool StdoutClosed() { return stdout_closed; }

}  // namespace squashlab::cli
