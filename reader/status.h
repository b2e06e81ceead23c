// SPDX-License-Identifier: GPL-2.0-only
// This file implements Status and StatusOr<T>: errors as values, the way the
// reader, the model and the command line report failures to their callers.
#ifndef SQUASHLAB_READER_STATUS_H_
#define SQUASHLAB_READER_STATUS_H_

#include <cassert>
#include <optional>
#include <string>
#include <utility>

namespace squashlab {

enum class StatusCode {
  kOk = 0,
  kCorruption,   // the image contradicts the format
  kOutOfRange,   // a read past an end the caller asked for
  kIoError,      // the operating system refused a read or write
  kUnsupported,  // valid SquashFS that this reader does not handle
  kNotFound,     // no such path
  kInvalidArgument,
};

class [[nodiscard]] Status {
 public:
  Status() = default;
  static Status Ok() { return Status(); }
  static Status Corruption(std::string m) {
    return {StatusCode::kCorruption, std::move(m)};
  }
  static Status OutOfRange(std::string m) {
    return {StatusCode::kOutOfRange, std::move(m)};
  }
  static Status IoError(std::string m) {
    return {StatusCode::kIoError, std::move(m)};
  }
  static Status Unsupported(std::string m) {
    return {StatusCode::kUnsupported, std::move(m)};
  }
  static Status NotFound(std::string m) {
    return {StatusCode::kNotFound, std::move(m)};
  }
  static Status InvalidArgument(std::string m) {
    return {StatusCode::kInvalidArgument, std::move(m)};
  }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  // "corruption: <message>" etc.; "ok" when ok().
  std::string ToString() const;

  // Returns this status with "context: " put in front of its message.
  Status WithContext(const std::string& context) const;

 private:
  Status(StatusCode c, std::string m) : code_(c), message_(std::move(m)) {}
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

// Holds either a value or a non-ok Status.
template <typename T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(Status s) : status_(std::move(s)) {
    assert(!status_.ok());
  }                                        // NOLINT
  StatusOr(T v) : value_(std::move(v)) {}  // NOLINT

  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }
  T& value() & {
    assert(ok());
    return *value_;
  }
  const T& value() const& {
    assert(ok());
    return *value_;
  }
  T&& value() && {
    assert(ok());
    return std::move(*value_);
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace squashlab

// Returns from the enclosing function when `expr` yields a non-ok Status.
#define SQL_RETURN_IF_ERROR(expr)              \
  do {                                         \
    ::squashlab::Status sql_status_ = (expr);  \
    if (!sql_status_.ok()) return sql_status_; \
  } while (0)

#define SQL_CONCAT_INNER(a, b) a##b
#define SQL_CONCAT(a, b) SQL_CONCAT_INNER(a, b)
#define SQL_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                              \
  if (!tmp.ok()) return tmp.status();             \
  lhs = std::move(tmp).value()
// `SQL_ASSIGN_OR_RETURN(auto x, MakeX());` assigns or returns the error.
#define SQL_ASSIGN_OR_RETURN(lhs, expr) \
  SQL_ASSIGN_OR_RETURN_IMPL(SQL_CONCAT(sql_statusor_, __LINE__), lhs, expr)

#endif  // SQUASHLAB_READER_STATUS_H_
