// SPDX-License-Identifier: GPL-2.0-only
// This file declares the checks the command line makes on its arguments
// before any work starts: output files and directories must be writable,
// thread counts in range. Each is a CLI11 validator, so a failed check is a
// usage error (exit 2) naming the option.
#ifndef SQUASHLAB_CLI_ARG_CHECKS_H_
#define SQUASHLAB_CLI_ARG_CHECKS_H_

#include <CLI/CLI.hpp>
#include <string>

namespace squashlab::cli {

// A file the command will create or replace: an existing writable file, or
// a new name in an existing writable directory. Nothing is created.
const CLI::Validator& WritableFile();

// A directory the command will write into: an existing writable directory,
// or a new name in an existing writable directory (created by the command).
const CLI::Validator& WritableDir();

// Like WritableFile, and the name ends in an image format the plot script
// writes (.png, .svg or .pdf).
const CLI::Validator& PlotFile();

// A whole number, written in decimal, of at least `min` ("'abc' is not a
// whole number", "-5 is below 0").
CLI::Validator AtLeast(long min);

// A number of seconds above 0 ("abc", "-1", "nan" are refused).
const CLI::Validator& PositiveSeconds();

// "" when `path` passes WritableFile, else why not (for callers outside
// CLI11).
std::string CheckWritableFile(const std::string& path);

}  // namespace squashlab::cli

#endif  // SQUASHLAB_CLI_ARG_CHECKS_H_
