// SPDX-License-Identifier: GPL-2.0-only
// This file implements a fidelity row's error and target, its record, and
// the markdown table built from the records of a `fidelity` result.
#include <cmath>
#include <cstdio>
#include <sstream>

#include "bench/sim/fidelity.h"

namespace squashlab {
namespace {

std::string Num(double v) {
  char b[32];
  if (std::fabs(v) >= 100 || v == std::floor(v))
    std::snprintf(b, sizeof b, "%.0f", v);
  else
    std::snprintf(b, sizeof b, "%.1f", v);
  return b;
}

std::string Text(const BenchRecord& r, const std::string& key) {
  for (const auto& [k, v] : r)
    if (k == key) {
      if (const auto* s = std::get_if<std::string>(&v)) return *s;
      if (const auto* u = std::get_if<uint64_t>(&v)) return std::to_string(*u);
      char b[32];
      std::snprintf(b, sizeof b, "%.1f", std::get<double>(v));
      return b;
    }
  return "";
}

double Number(const BenchRecord& r, const std::string& key) {
  for (const auto& [k, v] : r)
    if (k == key)
      if (const auto* d = std::get_if<double>(&v)) return *d;
  return 0;
}

}  // namespace

double FidelityRow::Error() const {
  double mid = IsRange() ? 0 : lo;
  if (!IsRange()) {
    if (mid == 0) return pred_lo == 0 ? 0 : 1;
    return (pred_lo - mid) / std::fabs(mid);
  }
  // The end of the predicted span furthest outside [lo, hi].
  double worst = 0;
  if (pred_lo < lo) worst = (pred_lo - lo) / std::fabs(lo);
  if (pred_hi > hi && (pred_hi - hi) / std::fabs(hi) > std::fabs(worst))
    worst = (pred_hi - hi) / std::fabs(hi);
  return worst;
}

bool FidelityRow::Within() const {
  if (IsRange()) return Error() == 0;
  if (tolerance < 0) {  // a factor: within 1/f .. f of the figure
    double f = -tolerance;
    return pred_lo >= lo / f && pred_lo <= lo * f;
  }
  return std::fabs(Error()) <= tolerance + 1e-9;
}

BenchRecord FidelityRow::Record() const {
  std::string thread_value = IsRange() ? Num(lo) + ".." + Num(hi) : Num(lo);
  std::string predicted =
      pred_lo == pred_hi ? Num(pred_lo) : Num(pred_lo) + ".." + Num(pred_hi);
  std::string target = IsRange()       ? "inside the range"
                       : tolerance < 0 ? "within " + Num(-tolerance) + "x"
                                       : "within " + Num(100 * tolerance) + "%";
  return {{"id", id},
          {"source", source},
          {"thread", thread},
          {"unit", unit},
          {"thread_lo", lo},
          {"thread_hi", hi},
          {"thread_value", thread_value},
          {"predicted_lo", pred_lo},
          {"predicted_hi", pred_hi},
          {"predicted", predicted},
          {"error_pct", 100 * Error()},
          {"target", target},
          {"within", std::string(Within() ? "yes" : "no")},
          {"role", role},
          {"mechanism", mechanism}};
}

namespace {

// Rows within target, mean and largest |error| of the records `pick` takes.
template <typename Pick>
std::string Summary(const BenchResult& r, Pick pick) {
  int within = 0, n = 0;
  double sum_err = 0, max_err = 0;
  std::string max_id;
  for (const BenchRecord& rec : r.records) {
    if (!pick(rec)) continue;
    n++;
    if (Text(rec, "within") == "yes") within++;
    double e = std::fabs(Number(rec, "error_pct"));
    sum_err += e;
    if (e > max_err) max_err = e, max_id = Text(rec, "id");
  }
  char err[96];
  std::snprintf(err, sizeof err, "%.1f%%, largest %.1f%%",
                n ? sum_err / n : 0.0, max_err);
  return std::to_string(within) + " of " + std::to_string(n) +
         " rows within their target; mean |error| over the rows " + err +
         (max_id.empty() ? "" : " (" + max_id + ")");
}

bool FromRtThread(const BenchRecord& rec) {
  return Text(rec, "source").rfind("2018 RT thread", 0) == 0;
}

}  // namespace

std::string FidelityMarkdown(const BenchResult& r) {
  std::ostringstream o;
  o << "| figure | the thread | thread | simulated | error | target | "
       "within | role | mechanism |\n";
  o << "| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";
  bool rt = false;
  for (const BenchRecord& rec : r.records) {
    rt = rt || FromRtThread(rec);
    std::string unit = Text(rec, "unit");
    std::string sep = unit == "%" ? "" : " ";
    o << "| " << Text(rec, "id") << " | " << Text(rec, "source") << ": "
      << Text(rec, "thread") << " | " << Text(rec, "thread_value") << sep
      << unit << " | " << Text(rec, "predicted") << sep << unit << " | "
      << Text(rec, "error_pct") << "% | " << Text(rec, "target") << " | "
      << Text(rec, "within") << " | " << Text(rec, "role") << " | "
      << Text(rec, "mechanism") << " |\n";
  }
  o << "\n" << Summary(r, [](const BenchRecord&) { return true; }) << ".\n";
  if (rt) {
    o << "The 2013 thread: "
      << Summary(r, [](const BenchRecord& x) { return !FromRtThread(x); })
      << "; the 2018 RT thread: " << Summary(r, FromRtThread) << ".\n";
  }
  return o.str();
}

}  // namespace squashlab
