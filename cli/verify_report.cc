// SPDX-License-Identifier: GPL-2.0-only
// This file implements verify's text verdict. Classes are labelled A, B, ...
// in the order first found, so that the table can name them in one column
// and each report is printed once however many cells found it.
#include "cli/verify_report.h"

#include <cstdio>
#include <map>
#include <set>

#include "cli/verify_classes.h"
#include "harness/verify.h"

namespace squashlab::cli {
namespace {

std::string Printf(const char* fmt, auto... args) {
  char buf[1024];
  std::snprintf(buf, sizeof buf, fmt, args...);
  return buf;
}

std::string Label(size_t i) {
  return i < 26 ? std::string(1, static_cast<char>('A' + i))
                : "Z" + std::to_string(i - 25);
}

// Class key -> label, in the order first found.
using Labels = std::map<std::string, std::string>;

// The key a class is shown under: its kind and title, except that a hang is
// one class whichever task hung.
std::string KeyOf(const FoundClass& c) {
  return c.kind == "hung-task" ? c.kind : c.kind + "|" + c.title;
}

// The cell's classes, one for each key.
std::vector<FoundClass> ShownClasses(const CellResult& cell) {
  std::vector<FoundClass> out;
  for (const FoundClass& c : FoundClasses(cell)) {
    bool seen = false;
    for (const FoundClass& o : out) seen |= KeyOf(o) == KeyOf(c);
    if (!seen) out.push_back(c);
  }
  return out;
}

// " (in kworker)": the kind of task that hit it, without its ids.
std::string TaskNote(const FoundClass& c) {
  const std::string& task = c.minimised->report.task;
  if (task.empty() || c.kind == "hung-task") return "";
  const size_t end = task.find_first_of("/:");
  return " (in " + task.substr(0, end) + ")";
}

std::string FormatClasses(const VerifyResult& r, Labels* labels) {
  std::string out;
  for (const CellResult& cell : r.cells) {
    for (const FoundClass& c : ShownClasses(cell)) {
      if (labels->count(KeyOf(c))) continue;
      const std::string label = Label(labels->size());
      (*labels)[KeyOf(c)] = label;
      out += Printf("  [%s] %-19s %s%s\n", label.c_str(), c.kind.c_str(),
                    c.title.c_str(), TaskNote(c).c_str());
    }
  }
  return out.empty()
             ? out
             : "failure classes (the kernel's title of each):\n" + out + "\n";
}

std::string FormatListings(const VerifyResult& r) {
  std::string out;
  for (const CellResult& cell : r.cells) {
    for (const FoundClass& c : FoundClasses(cell)) {
      out += "==== " + cell.variant + " x " + cell.decomp + ", " + c.kernel +
             " kernel: " + c.title + "\n" + c.minimised->report.ToString() +
             "replay token: " + c.minimised_token + "\n" + MinimisedListing(c) +
             "\n";
    }
  }
  return out;
}

std::string FormatDetailsPointer(const VerifyReportOptions& opt,
                                 bool any_class) {
  if (!any_class) return "";
  std::string out = "details: `squashlab repro TOKEN` replays a class";
  if (!opt.listings) out += "; -v prints the minimised schedules";
  out += opt.out_dir.empty()
             ? "; --out DIR writes reports, schedules and Perfetto traces"
             : "; reports, schedules and Perfetto traces are in " + opt.out_dir;
  if (!opt.json.empty()) out += "; JSON in " + opt.json;
  return out + "\n\n";
}

// One row per class of the cell; classes first found in the same run (a
// run goes on after a warning) share a row and its token.
std::string FormatClassRows(const CellResult& cell, const Labels& labels) {
  std::string out;
  const std::vector<FoundClass> classes = ShownClasses(cell);
  for (size_t i = 0; i < classes.size();) {
    const FoundClass& c = classes[i];
    std::string names = labels.at(KeyOf(c));
    size_t j = i + 1;
    for (; j < classes.size() && classes[j].token == c.token; j++)
      names += "," + labels.at(KeyOf(classes[j]));
    out +=
        Printf("  %-9s %-5s %6ld sched %6.2f s  %s\n",
               ("[" + names + "]").c_str(), c.kernel.c_str(), c.first_schedule,
               c.seconds_to_first, c.minimised_token.c_str());
    i = j;
  }
  return out;
}

std::string FormatTable(const VerifyResult& r, const Labels& labels) {
  std::string out =
      Printf("%-19s %-17s %9s  %s\n", "variant", "decompressor", "schedules",
             "verdict; [classes] kernel, first found after, replay token");
  for (const CellResult& cell : r.cells) {
    const size_t n = ShownClasses(cell).size();
    std::string verdict =
        n == 0 ? (cell.exhausted ? "clean (exhausted)" : "clean")
               : std::to_string(n) + (n == 1 ? " class" : " classes");
    out += Printf("%-19s %-17s %9ld  %s\n", cell.variant.c_str(),
                  cell.decomp.c_str(), cell.runs, verdict.c_str());
    out += FormatClassRows(cell, labels);
  }
  return out;
}

}  // namespace

std::string FormatVerifyReport(const VerifyResult& r,
                               const VerifyReportOptions& opt) {
  Labels labels;
  std::string classes = FormatClasses(r, &labels);
  std::string out = opt.listings ? FormatListings(r) : "";
  out += classes + FormatDetailsPointer(opt, !labels.empty());
  return out + FormatTable(r, labels);
}

std::string FormatVerifySummary(const VerifyResult& r,
                                const Expectations& expected,
                                const std::vector<std::string>& unmet) {
  size_t clean = 0, failing = 0;
  std::map<std::string, std::set<std::string>> classes_by_variant;
  for (const CellResult& cell : r.cells) {
    const std::vector<FoundClass> shown = ShownClasses(cell);
    (shown.empty() ? clean : failing)++;
    for (const FoundClass& c : shown)
      classes_by_variant[cell.variant].insert(KeyOf(c));
  }
  std::string failing_text;
  for (const auto& [variant, keys] : classes_by_variant)
    failing_text += (failing_text.empty() ? " (" : ", ") + variant + ": " +
                    std::to_string(keys.size()) + " classes";
  if (!failing_text.empty()) failing_text += ")";
  std::string out;
  for (const std::string& u : unmet) out += "unexpected: " + u + "\n";
  std::string expected_fail;
  for (const auto& [variant, fail] : expected)
    if (fail) expected_fail += (expected_fail.empty() ? "" : ", ") + variant;
  if (expected_fail.empty()) expected_fail = "none";
  out += Printf(
      "verdict: %zu cells in %.0f s, %zu clean, %zu failing%s; expected to "
      "fail: %s: %s\n",
      r.cells.size(), r.seconds, clean, failing, failing_text.c_str(),
      expected_fail.c_str(), unmet.empty() ? "as expected" : "NOT as expected");
  return out;
}

}  // namespace squashlab::cli
