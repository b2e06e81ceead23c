// This file implements exit codes and error messages for the command line.
#include "cli/cli_status.h"

#include <cstdio>

namespace squashlab::cli {

int ExitCodeFor(const Status& s) {
  switch (s.code()) {
    case StatusCode::kOk: return kExitOk;
    case StatusCode::kNotFound: return kExitNotFound;
    case StatusCode::kInvalidArgument: return kExitUsage;
    case StatusCode::kIoError: return kExitIo;
    case StatusCode::kCorruption:
    case StatusCode::kOutOfRange:
    case StatusCode::kUnsupported: return kExitCorrupt;
  }
  return kExitCorrupt;
}

int Fail(const std::string& image, const std::string& path, const Status& s) {
  std::string msg = "squashlab: ";
  if (!image.empty()) msg += image + ": ";
  if (!path.empty()) msg += path + ": ";
  msg += s.ToString();
  std::fprintf(stderr, "%s\n", msg.c_str());
  return ExitCodeFor(s);
}

}  // namespace squashlab::cli
