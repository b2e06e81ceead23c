// SPDX-License-Identifier: GPL-2.0-only
// This file implements exit codes and error messages for the command line.
#include "cli/cli_status.h"

#include <cstdio>

namespace squashlab::cli {
namespace {

// s's text with a message that merely repeats `path` left out:
// "not found" rather than "not found: /nope" after "/nope: ".
std::string Reason(const std::string& path, const Status& s) {
  const std::string full = s.ToString();
  const std::string& m = s.message();
  if (path.empty() || m.compare(0, path.size(), path) != 0) return full;
  std::string kind = full.substr(0, full.size() - m.size());  // "not found: "
  while (!kind.empty() && (kind.back() == ' ' || kind.back() == ':'))
    kind.pop_back();
  std::string rest = m.substr(path.size());
  if (!rest.empty() && rest[0] != ' ') return full;  // "/nope2": another path
  return kind + rest;
}

}  // namespace

int ExitCodeFor(const Status& s) {
  switch (s.code()) {
    case StatusCode::kOk:
      return kExitOk;
    case StatusCode::kNotFound:
      return kExitNotFound;
    case StatusCode::kInvalidArgument:
      return kExitUsage;
    case StatusCode::kIoError:
      return kExitIo;
    case StatusCode::kCorruption:
    case StatusCode::kOutOfRange:
    case StatusCode::kUnsupported:
      return kExitCorrupt;
  }
  return kExitCorrupt;
}

int Fail(const std::string& image, const std::string& path, const Status& s) {
  std::string msg = "squashlab: ";
  if (!image.empty()) msg += image + ": ";
  if (!path.empty()) msg += path + ": ";
  msg += Reason(path.empty() ? image : path, s);
  std::fprintf(stderr, "%s\n", msg.c_str());
  return ExitCodeFor(s);
}

int UsageError(const std::string& command, const std::string& problem) {
  const std::string who =
      command.empty() ? "squashlab" : "squashlab " + command;
  std::fprintf(stderr, "%s: %s\ntry '%s --help'\n", who.c_str(),
               problem.c_str(), who.c_str());
  return kExitUsage;
}

}  // namespace squashlab::cli
