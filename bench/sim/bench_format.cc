// This file implements the outputs of a BenchResult: aligned text tables,
// JSON (fixed key order, fixed number formats: identical bytes for
// identical results) and CSV (one line per cell record).
#include <algorithm>
#include <cstdio>
#include <set>
#include <sstream>

#include "bench/sim/bench.h"

namespace squashlab {
namespace {

std::string JsonString(const std::string& s) {
  std::string o = "\"";
  for (char ch : s) {
    unsigned char c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      o += '\\';
      o += ch;
    } else if (c < 0x20) {
      char b[8];
      std::snprintf(b, sizeof b, "\\u%04x", c);
      o += b;
    } else {
      o += ch;
    }
  }
  return o + "\"";
}

std::string Scalar(const BenchValue& v, bool json) {
  if (const auto* s = std::get_if<std::string>(&v)) return json ? JsonString(*s) : *s;
  if (const auto* u = std::get_if<uint64_t>(&v)) return std::to_string(*u);
  char b[64];
  std::snprintf(b, sizeof b, "%.4f", std::get<double>(v));
  return b;
}

std::string RecordJson(const BenchRecord& r) {
  std::string o = "{";
  for (size_t i = 0; i < r.size(); i++)
    o += (i ? ", " : "") + JsonString(r[i].first) + ": " + Scalar(r[i].second, true);
  return o + "}";
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
    for (const auto& [name, cells] : t.rows) w[0] = std::max(w[0], name.size() + 1);
    for (size_t c = 0; c < t.columns.size(); c++) {
      w[c + 1] = t.columns[c].size();
      for (const auto& [name, cells] : t.rows)
        if (c < cells.size()) w[c + 1] = std::max(w[c + 1], cells[c].size());
    }
    auto line = [&](const std::string& first, const std::vector<std::string>& cells) {
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
  std::ostringstream o;
  o << "{\n  \"scenario\": " << JsonString(r.scenario) << ",\n  \"profile\": "
    << JsonString(r.profile) << ",\n  \"setup\": [";
  for (size_t i = 0; i < r.setup.size(); i++) o << (i ? ",\n    " : "\n    ") << RecordJson(r.setup[i]);
  o << "\n  ],\n  \"tables\": [";
  for (size_t i = 0; i < r.tables.size(); i++) {
    const BenchTable& t = r.tables[i];
    o << (i ? "," : "") << "\n    {\"title\": " << JsonString(t.title)
      << ", \"corner\": " << JsonString(t.corner) << ", \"columns\": [";
    for (size_t c = 0; c < t.columns.size(); c++) o << (c ? ", " : "") << JsonString(t.columns[c]);
    o << "], \"rows\": [";
    for (size_t k = 0; k < t.rows.size(); k++) {
      o << (k ? ", " : "") << "[" << JsonString(t.rows[k].first);
      for (const auto& cell : t.rows[k].second) o << ", " << JsonString(cell);
      o << "]";
    }
    o << "]}";
  }
  o << "\n  ],\n  \"records\": [";
  for (size_t i = 0; i < r.records.size(); i++)
    o << (i ? ",\n    " : "\n    ") << RecordJson(r.records[i]);
  o << "\n  ],\n  \"notes\": [";
  for (size_t i = 0; i < r.notes.size(); i++) o << (i ? ",\n    " : "\n    ") << JsonString(r.notes[i]);
  o << "\n  ]\n}\n";
  return o.str();
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
      auto it = std::find_if(rec.begin(), rec.end(), [&](const auto& p) { return p.first == k; });
      o << "," << (it == rec.end() ? "" : CsvField(Scalar(it->second, false)));
    }
    o << "\n";
  }
  return o.str();
}

}  // namespace squashlab
