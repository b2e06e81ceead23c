// SPDX-License-Identifier: GPL-2.0-only
// This file implements the long listing format: mode string, "user/group"
// padded so that the size column ends 25 characters after it, then local
// time to the minute, path and link target.
#include "cli/reader/long_listing.h"

#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>

#include <cstdio>
#include <ctime>
#include <unordered_map>

namespace squashlab::cli {

std::string ModeString(mode_t mode) {
  std::string s = "?rwxrwxrwx";
  switch (mode & S_IFMT) {
    case S_IFDIR:
      s[0] = 'd';
      break;
    case S_IFREG:
      s[0] = '-';
      break;
    case S_IFLNK:
      s[0] = 'l';
      break;
    case S_IFBLK:
      s[0] = 'b';
      break;
    case S_IFCHR:
      s[0] = 'c';
      break;
    case S_IFIFO:
      s[0] = 'p';
      break;
    case S_IFSOCK:
      s[0] = 's';
      break;
  }
  for (int i = 0; i < 9; ++i) {
    if (!(mode & (0400 >> i))) s[1 + i] = '-';
  }
  auto special = [&](int pos, mode_t bit, char set_exec, char set_noexec) {
    if (mode & bit) s[pos] = s[pos] == '-' ? set_noexec : set_exec;
  };
  special(3, S_ISUID, 's', 'S');
  special(6, S_ISGID, 's', 'S');
  special(9, S_ISVTX, 't', 'T');
  return s;
}

namespace {
// Looks a name up once per id; `lookup` returns nullptr when there is none.
std::string CachedName(std::unordered_map<uint32_t, std::string>* cache,
                       uint32_t id, const char* (*lookup)(uint32_t)) {
  auto it = cache->find(id);
  if (it != cache->end()) return it->second;
  const char* name = lookup(id);
  return (*cache)[id] = name ? name : std::to_string(id);
}
}  // namespace

std::string UserName(uint32_t uid) {
  static std::unordered_map<uint32_t, std::string> cache;
  return CachedName(&cache, uid, [](uint32_t id) -> const char* {
    struct passwd* pw = getpwuid(id);
    return pw ? pw->pw_name : nullptr;
  });
}

std::string GroupName(uint32_t gid) {
  static std::unordered_map<uint32_t, std::string> cache;
  return CachedName(&cache, gid, [](uint32_t id) -> const char* {
    struct group* gr = getgrgid(id);
    return gr ? gr->gr_name : nullptr;
  });
}

std::string FormatLongListing(const LongListingFields& f) {
  constexpr int kOwnerAndSizeWidth = 25;
  std::string line = ModeString(f.mode) + " " + f.user + "/" + f.group + " ";
  int pad =
      kOwnerAndSizeWidth - static_cast<int>(f.user.size() + f.group.size());
  char buf[64];
  const mode_t fmt = f.mode & S_IFMT;
  if (fmt == S_IFCHR || fmt == S_IFBLK) {
    pad -= 7;
    std::snprintf(buf, sizeof buf, "%*s%3u,%3u ", pad > 0 ? pad : 0, " ",
                  f.rdev_major, f.rdev_minor);
  } else {
    std::snprintf(buf, sizeof buf, "%*llu ", pad > 0 ? pad : 0,
                  static_cast<unsigned long long>(f.size));
  }
  line += buf;
  time_t t = static_cast<time_t>(f.mtime);
  struct tm tm;
  localtime_r(&t, &tm);
  std::snprintf(buf, sizeof buf, "%d-%02d-%02d %02d:%02d ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min);
  line += buf;
  line += f.path;
  if (fmt == S_IFLNK) line += " -> " + f.symlink_target;
  return line;
}

}  // namespace squashlab::cli
