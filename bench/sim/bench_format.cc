// SPDX-License-Identifier: GPL-2.0-only
// This file implements the outputs of a BenchResult: aligned text tables,
// JSON through nlohmann-json (fixed key order, reals to 4 decimals:
// identical bytes for identical results; docs/schema/bench.schema.json) and
// CSV (one line per cell record).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "bench/sim/bench.h"

namespace squashlab {
namespace {

// A real as JSON: 4 decimals, as the text tables print it (nlohmann-json
// writes the shortest form that reads back; NaN becomes null).
nlohmann::ordered_json Real(double v) { return std::round(v * 1e4) / 1e4; }

std::string Scalar(const BenchValue& v) {
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  if (const auto* u = std::get_if<uint64_t>(&v)) return std::to_string(*u);
  char b[64];
  std::snprintf(b, sizeof b, "%.4f", std::get<double>(v));
  return b;
}

nlohmann::ordered_json RecordJson(const BenchRecord& r) {
  nlohmann::ordered_json o = nlohmann::ordered_json::object();
  for (const auto& [key, value] : r) {
    if (const auto* s = std::get_if<std::string>(&value))
      o[key] = *s;
    else if (const auto* u = std::get_if<uint64_t>(&value))
      o[key] = *u;
    else
      o[key] = Real(std::get<double>(value));
  }
  return o;
}

std::string CsvField(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string o = "\"";
  for (char c : s) o += c == '"' ? std::string("\"\"") : std::string(1, c);
  return o + "\"";
}

}  // namespace

std::string FormatBenchText(const BenchResult& r) {
  std::ostringstream o;
  for (const BenchTable& t : r.tables) {
    o << t.title << "\n\n";
    std::vector<size_t> w(t.columns.size() + 1, 0);
    w[0] = t.corner.size();
    for (const auto& [name, cells] : t.rows)
      w[0] = std::max(w[0], name.size() + 1);
    for (size_t c = 0; c < t.columns.size(); c++) {
      w[c + 1] = t.columns[c].size();
      for (const auto& [name, cells] : t.rows)
        if (c < cells.size()) w[c + 1] = std::max(w[c + 1], cells[c].size());
    }
    auto line = [&](const std::string& first,
                    const std::vector<std::string>& cells) {
      std::string s = first + std::string(w[0] - first.size(), ' ');
      for (size_t c = 0; c < cells.size(); c++)
        s += "  " + std::string(w[c + 1] - cells[c].size(), ' ') + cells[c];
      o << s << "\n";
    };
    line(t.corner, t.columns);
    size_t total = w[0];
    for (size_t c = 1; c < w.size(); c++) total += w[c] + 2;
    o << std::string(total, '-') << "\n";
    for (const auto& [name, cells] : t.rows) line(name + ":", cells);
    o << "\n";
  }
  for (const std::string& n : r.notes) o << "* " << n << "\n";
  return o.str();
}

std::string BenchToJson(const BenchResult& r) {
  using nlohmann::ordered_json;
  ordered_json setup = ordered_json::array(), tables = ordered_json::array(),
               records = ordered_json::array();
  for (const BenchRecord& rec : r.setup) setup.push_back(RecordJson(rec));
  for (const BenchTable& t : r.tables) {
    ordered_json rows = ordered_json::array();
    for (const auto& [name, cells] : t.rows) {
      ordered_json row = {name};
      for (const std::string& cell : cells) row.push_back(cell);
      rows.push_back(std::move(row));
    }
    tables.push_back({{"title", t.title},
                      {"corner", t.corner},
                      {"columns", t.columns},
                      {"rows", std::move(rows)}});
  }
  for (const BenchRecord& rec : r.records) records.push_back(RecordJson(rec));
  ordered_json j = {{"scenario", r.scenario}, {"profile", r.profile},
                    {"setup", setup},         {"tables", tables},
                    {"records", records},     {"notes", r.notes}};
  return j.dump(2) + "\n";
}

std::string BenchToCsv(const BenchResult& r) {
  // The union of record keys, in first-seen order.
  std::vector<std::string> keys;
  std::set<std::string> seen;
  for (const BenchRecord& rec : r.records)
    for (const auto& [k, v] : rec)
      if (seen.insert(k).second) keys.push_back(k);
  std::ostringstream o;
  o << "scenario";
  for (const auto& k : keys) o << "," << CsvField(k);
  o << "\n";
  for (const BenchRecord& rec : r.records) {
    o << CsvField(r.scenario);
    for (const auto& k : keys) {
      auto it = std::find_if(rec.begin(), rec.end(),
                             [&](const auto& p) { return p.first == k; });
      o << "," << (it == rec.end() ? "" : CsvField(Scalar(it->second)));
    }
    o << "\n";
  }
  return o.str();
}

}  // namespace squashlab
