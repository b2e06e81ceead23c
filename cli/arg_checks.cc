// SPDX-License-Identifier: GPL-2.0-only
// This file implements the argument checks: writability is decided with
// stat(2) and access(2) on the path or, for a new name, on its directory.
#include "cli/arg_checks.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>

namespace squashlab::cli {
namespace {

std::string ParentOf(const std::string& path) {
  size_t slash = path.find_last_not_of('/');
  slash =
      slash == std::string::npos ? std::string::npos : path.rfind('/', slash);
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

// "" when a new entry can be made in `path`'s directory.
std::string CheckNewName(const std::string& path) {
  const std::string dir = ParentOf(path);
  struct stat st;
  if (stat(dir.c_str(), &st) != 0)
    return "cannot create " + path + ": " + dir + ": " + std::strerror(errno);
  if (!S_ISDIR(st.st_mode))
    return "cannot create " + path + ": " + dir + " is not a directory";
  if (access(dir.c_str(), W_OK | X_OK) != 0)
    return "cannot create " + path + ": " + dir + ": " + std::strerror(errno);
  return "";
}

std::string CheckWritableDir(const std::string& path) {
  if (path.empty()) return "an empty directory name";
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    if (errno != ENOENT) return path + ": " + std::strerror(errno);
    return CheckNewName(path);
  }
  if (!S_ISDIR(st.st_mode)) return path + " is not a directory";
  if (access(path.c_str(), W_OK | X_OK) != 0)
    return path + ": " + std::strerror(errno);
  return "";
}

bool EndsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() &&
         s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

std::string CheckWritableFile(const std::string& path) {
  if (path.empty()) return "an empty file name";
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    if (errno != ENOENT) return path + ": " + std::strerror(errno);
    return CheckNewName(path);
  }
  if (S_ISDIR(st.st_mode)) return path + " is a directory";
  if (access(path.c_str(), W_OK) != 0)
    return path + ": " + std::strerror(errno);
  return "";
}

const CLI::Validator& WritableFile() {
  static const CLI::Validator v(CheckWritableFile, "");
  return v;
}

const CLI::Validator& WritableDir() {
  static const CLI::Validator v(CheckWritableDir, "");
  return v;
}

CLI::Validator AtLeast(long min) {
  return CLI::Validator(
      [min](const std::string& text) -> std::string {
        long value = 0;
        const char* end = text.data() + text.size();
        auto [ptr, ec] = std::from_chars(text.data(), end, value);
        if (text.empty() || ec == std::errc::invalid_argument || ptr != end)
          return "'" + text + "' is not a whole number";
        if (ec == std::errc::result_out_of_range) return text + " is too large";
        if (value < min) return text + " is below " + std::to_string(min);
        return "";
      },
      "");
}

const CLI::Validator& PositiveSeconds() {
  static const CLI::Validator v(
      [](const std::string& text) -> std::string {
        char* end = nullptr;
        errno = 0;
        const double value = std::strtod(text.c_str(), &end);
        if (text.empty() || end != text.c_str() + text.size() || errno != 0 ||
            !(value > 0) || value > 1e9)
          return "'" + text + "' is not a number of seconds above 0";
        return "";
      },
      "");
  return v;
}

const CLI::Validator& PlotFile() {
  static const CLI::Validator v(
      [](const std::string& path) -> std::string {
        if (!EndsWith(path, ".png") && !EndsWith(path, ".svg") &&
            !EndsWith(path, ".pdf"))
          return path + ": the plot's name must end in .png, .svg or .pdf";
        return CheckWritableFile(path);
      },
      "");
  return v;
}

}  // namespace squashlab::cli
