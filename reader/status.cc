// SPDX-License-Identifier: GPL-2.0-only
// This file implements the text forms of Status.
#include "reader/status.h"

namespace squashlab {
namespace {
const char* CodeName(StatusCode c) {
  switch (c) {
    case StatusCode::kOk:
      return "ok";
    case StatusCode::kCorruption:
      return "corruption";
    case StatusCode::kOutOfRange:
      return "out of range";
    case StatusCode::kIoError:
      return "I/O error";
    case StatusCode::kUnsupported:
      return "unsupported";
    case StatusCode::kNotFound:
      return "not found";
    case StatusCode::kInvalidArgument:
      return "invalid argument";
  }
  return "unknown";
}
}  // namespace

std::string Status::ToString() const {
  if (ok()) return "ok";
  return std::string(CodeName(code_)) + ": " + message_;
}

Status Status::WithContext(const std::string& context) const {
  if (ok()) return *this;
  return Status(code_, context + ": " + message_);
}

}  // namespace squashlab
