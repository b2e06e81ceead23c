// SPDX-License-Identifier: GPL-2.0-only
// This file implements the fault-plan string format and the keyed draws.
#include "hw_emul/fault_plan.h"

#include <charconv>
#include <cstdio>
#include <cstdlib>

#include "model/base/rng.h"

namespace squashlab {
namespace {

std::string FormatDouble(double v) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);  // shortest round trip
  return std::string(buf, r.ptr);
}

bool ParseU64(const std::string& s, uint64_t* out) {
  if (s.empty()) return false;
  auto r = std::from_chars(s.data(), s.data() + s.size(), *out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

bool ParseProbability(const std::string& s, double* out) {
  if (s.empty()) return false;
  auto r = std::from_chars(s.data(), s.data() + s.size(), *out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size() && *out >= 0 &&
         *out <= 1;
}

bool ParseRange(const std::string& s, SectorRange* out) {
  size_t dash = s.find('-');
  if (dash == std::string::npos) {
    if (!ParseU64(s, &out->first)) return false;
    out->last = out->first;
    return true;
  }
  return ParseU64(s.substr(0, dash), &out->first) &&
         ParseU64(s.substr(dash + 1), &out->last) && out->first <= out->last;
}

std::string FormatRange(const SectorRange& r) {
  std::string s = std::to_string(r.first);
  if (r.last != r.first) s += "-" + std::to_string(r.last);
  return s;
}

Status ParseItem(const std::string& item, FaultPlan* plan) {
  size_t eq = item.find('=');
  if (eq == std::string::npos)
    return Status::InvalidArgument("fault plan item without '=': " + item);
  std::string key = item.substr(0, eq);
  std::string value = item.substr(eq + 1);
  bool ok = false;
  if (key == "eio@sector" || key == "flip@sector") {
    SectorRange r;
    ok = ParseRange(value, &r);
    if (ok)
      (key[0] == 'e' ? plan->eio_sectors : plan->flip_sectors).push_back(r);
  } else if (key == "eio") {
    ok = ParseProbability(value, &plan->eio);
  } else if (key == "reada_drop") {
    ok = ParseProbability(value, &plan->reada_drop);
  } else if (key == "congest") {
    ok = ParseU64(value, &plan->congest);
  } else if (key == "flip") {
    ok = ParseProbability(value, &plan->flip);
  } else if (key == "delay") {
    ok = ParseProbability(value, &plan->delay);
  } else if (key == "delay_us") {
    ok = ParseU64(value, &plan->delay_us);
  } else if (key == "reorder") {
    ok = ParseProbability(value, &plan->reorder);
  } else if (key == "short") {
    ok = ParseProbability(value, &plan->short_completion);
  } else if (key == "seed") {
    uint64_t s = 0;
    ok = ParseU64(value, &s);
    if (ok) plan->seed = s;
  } else {
    return Status::InvalidArgument("unknown fault plan key: " + key);
  }
  if (!ok)
    return Status::InvalidArgument("bad value in fault plan item: " + item);
  return Status::Ok();
}

}  // namespace

bool FaultPlan::empty() const { return ToString().empty(); }

bool FaultPlan::can_fail() const {
  return eio > 0 || !eio_sectors.empty() || reada_drop > 0 ||
         short_completion > 0 || flip > 0 || !flip_sectors.empty();
}

std::string FaultPlan::ToString() const {
  std::string s;
  auto add = [&s](const std::string& item) {
    if (!s.empty()) s += ";";
    s += item;
  };
  for (const SectorRange& r : eio_sectors) add("eio@sector=" + FormatRange(r));
  if (eio > 0) add("eio=" + FormatDouble(eio));
  if (reada_drop > 0) add("reada_drop=" + FormatDouble(reada_drop));
  if (congest > 0) add("congest=" + std::to_string(congest));
  for (const SectorRange& r : flip_sectors)
    add("flip@sector=" + FormatRange(r));
  if (flip > 0) add("flip=" + FormatDouble(flip));
  if (delay > 0) add("delay=" + FormatDouble(delay));
  if (delay_us != 1000) add("delay_us=" + std::to_string(delay_us));
  if (reorder > 0) add("reorder=" + FormatDouble(reorder));
  if (short_completion > 0) add("short=" + FormatDouble(short_completion));
  if (seed) add("seed=" + std::to_string(*seed));
  return s;
}

StatusOr<FaultPlan> FaultPlan::Parse(const std::string& text) {
  FaultPlan plan;
  if (text.empty() || text == "none") return plan;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find(';', pos);
    if (end == std::string::npos) end = text.size();
    std::string item = text.substr(pos, end - pos);
    if (item.empty())
      return Status::InvalidArgument("empty item in fault plan: " + text);
    SQL_RETURN_IF_ERROR(ParseItem(item, &plan));
    pos = end + 1;
  }
  return plan;
}

uint64_t FaultDraw::Value(FaultSite site, uint64_t key, uint64_t nth) const {
  uint64_t site_seed = Rng::Mix(seed_, static_cast<uint64_t>(site));
  uint64_t key_seed = Rng::Mix(site_seed ^ 0x5bd1e995ULL, key);
  return Rng::Mix(key_seed, nth);
}

bool FaultDraw::Fires(double p, FaultSite site, uint64_t key,
                      uint64_t nth) const {
  if (p <= 0) return false;
  if (p >= 1) return true;
  // 53 random bits as a double in [0, 1).
  double u = static_cast<double>(Value(site, key, nth) >> 11) * 0x1.0p-53;
  return u < p;
}

}  // namespace squashlab
