// SPDX-License-Identifier: GPL-2.0-only
// This file implements the command line's error reporting: exit codes by
// kind of failure, and messages of the form "squashlab: IMG: PATH: reason".
#ifndef SQUASHLAB_CLI_CLI_STATUS_H_
#define SQUASHLAB_CLI_CLI_STATUS_H_

#include <string>

#include "reader/status.h"

namespace squashlab::cli {

enum ExitCode : int {
  kExitOk = 0,
  kExitNotFound = 1,  // a path is not in the image
  kExitUsage = 2,     // bad command line
  kExitCorrupt = 3,   // the image is corrupt or uses something unsupported
  kExitIo = 4,        // the host refused a read or a write
  // stdout was closed before everything was written (`squashlab cat ... |
  // head`): the command stops quietly with the status a shell reports for
  // cat killed by SIGPIPE (128 + 13).
  kExitBrokenPipe = 141,
};

int ExitCodeFor(const Status& s);

// Prints "squashlab: IMG: PATH: reason" (parts that are empty are left out;
// a reason that only repeats PATH is not repeated) to stderr and returns the
// exit code for s.
int Fail(const std::string& image, const std::string& path, const Status& s);

// Prints "squashlab COMMAND: problem" and "try 'squashlab COMMAND --help'"
// to stderr and returns kExitUsage. An empty command names the program.
int UsageError(const std::string& command, const std::string& problem);

}  // namespace squashlab::cli

#endif  // SQUASHLAB_CLI_CLI_STATUS_H_
