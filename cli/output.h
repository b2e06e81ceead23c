// SPDX-License-Identifier: GPL-2.0-only
// This file implements small helpers for the command line's output: writing
// all of a buffer to a file descriptor, and the worker-count option.
#ifndef SQUASHLAB_CLI_OUTPUT_H_
#define SQUASHLAB_CLI_OUTPUT_H_

#include <sys/types.h>

#include <string>
#include <vector>

#include "reader/le_decode.h"
#include "reader/status.h"

namespace squashlab::cli {

// Writes all bytes (at `offset` when offset >= 0, else at the current
// position), retrying short writes and EINTR.
Status WriteAll(int fd, ByteSpan bytes, off_t offset = -1);

// The default number of decoding threads: the cores this process may use.
int DefaultThreads();

// Takes "-p N" (1..256) out of args: sets *threads (default: DefaultThreads())
// and returns the other arguments in order; false on a bad -p.
bool TakeThreadsOption(const std::vector<std::string>& args, int* threads,
                       std::vector<std::string>* rest);

}  // namespace squashlab::cli

#endif  // SQUASHLAB_CLI_OUTPUT_H_
