// SPDX-License-Identifier: GPL-2.0-only
// This file declares the output path of commands that stream to stdout
// (cat, ls): writes that notice when the reader of a pipe has gone away, so
// that `squashlab cat IMG f | head` stops quietly, as cat does.
#ifndef SQUASHLAB_CLI_READER_STDOUT_SINK_H_
#define SQUASHLAB_CLI_READER_STDOUT_SINK_H_

#include <string>

#include "reader/le_decode.h"
#include "reader/status.h"

namespace squashlab::cli {

// Makes a closed pipe show as EPIPE on write instead of killing the process
// with SIGPIPE (so that worker threads stop in order).
void IgnoreSigpipe();

// Writes all bytes to the stdout file descriptor (unbuffered).
Status WriteStdout(ByteSpan bytes);

// Writes `line` and a newline through stdio's buffered stdout.
Status PrintLine(const std::string& line);

// Flushes stdio's stdout.
Status FlushStdout();

// True once a write to stdout failed with EPIPE. The command should then
// stop, print nothing and exit with kExitBrokenPipe.
bool StdoutClosed();

}  // namespace squashlab::cli

#endif  // SQUASHLAB_CLI_READER_STDOUT_SINK_H_
