// SPDX-License-Identifier: GPL-2.0-only
// This file implements the text form of replay tokens.
#include "model/sched/replay_token.h"

#include <charconv>

namespace squashlab {
namespace {

std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); i++) {
    if (i == s.size() || s[i] == sep) {
      parts.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return parts;
}

bool ParseU64(const std::string& s, uint64_t* v) {
  auto r = std::from_chars(s.data(), s.data() + s.size(), *v);
  return r.ec == std::errc() && r.ptr == s.data() + s.size() && !s.empty();
}

}  // namespace

std::string ReplayToken::ToString() const {
  std::string c;
  for (size_t i = 0; i < choices.size();) {
    size_t j = i;
    while (j < choices.size() && choices[j] == choices[i]) j++;
    if (!c.empty()) c += ".";
    c += std::to_string(choices[i]);
    if (j - i > 1) c += "x" + std::to_string(j - i);
    i = j;
  }
  return "sq1:" + strategy + ":" + std::to_string(seed) + ":" + scenario + ":" +
         c;
}

StatusOr<ReplayToken> ReplayToken::Parse(const std::string& text) {
  std::vector<std::string> f = Split(text, ':');
  if (f.size() != 5 || f[0] != "sq1")
    return Status::InvalidArgument(
        "replay token: want sq1:<strategy>:<seed>:<scenario>:<choices>");
  ReplayToken t;
  t.strategy = f[1];
  if (!ParseU64(f[2], &t.seed))
    return Status::InvalidArgument("replay token: bad seed " + f[2]);
  t.scenario = f[3];
  if (f[4].empty()) return t;
  for (const std::string& run : Split(f[4], '.')) {
    std::vector<std::string> rc = Split(run, 'x');
    uint64_t task = 0, count = 1;
    if (rc.size() > 2 || !ParseU64(rc[0], &task) ||
        (rc.size() == 2 && !ParseU64(rc[1], &count)) || count == 0 ||
        count > 100000000 || task > 1000000)
      return Status::InvalidArgument("replay token: bad choice run " + run);
    t.choices.insert(t.choices.end(), count, static_cast<int>(task));
  }
  return t;
}

}  // namespace squashlab
