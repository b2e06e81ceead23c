// This file implements verify's text verdict. Classes are labelled A, B, ...
// in the order first found, so that the table can name them in one column
// and each report is printed once however many cells found it.
#include "cli/verify_report.h"

#include <cstdio>
#include <map>

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
  return i < 26 ? std::string(1, static_cast<char>('A' + i)) : "Z" + std::to_string(i - 25);
}

// Class key (kind and title) -> label, in the order first found.
using Labels = std::map<std::string, std::string>;

std::string KeyOf(const FoundClass& c) { return c.kind + "|" + c.title; }

std::string FormatClasses(const VerifyResult& r, Labels* labels) {
  std::string out;
  for (const CellResult& cell : r.cells) {
    for (const FoundClass& c : FoundClasses(cell)) {
      if (labels->count(KeyOf(c))) continue;
      const std::string label = Label(labels->size());
      (*labels)[KeyOf(c)] = label;
      out += "[" + label + "] " + c.kind + " (first in " + cell.variant + " x " + cell.decomp +
             ", " + c.kernel + " kernel)\n" + c.minimised->report.ToString();
    }
  }
  return out.empty() ? out : "failure classes, each report as the kernel prints it:\n" + out + "\n";
}

std::string FormatListings(const VerifyResult& r) {
  std::string out;
  for (const CellResult& cell : r.cells) {
    for (const FoundClass& c : FoundClasses(cell)) {
      out += "==== " + cell.variant + " x " + cell.decomp + ", " + c.kernel + " kernel: " +
             c.title + "\n" + c.minimised->report.ToString() + "replay token: " +
             c.minimised_token + "\n" + MinimisedListing(c) + "\n";
    }
  }
  return out;
}

std::string FormatDetailsPointer(const VerifyReportOptions& opt, bool any_class) {
  if (!any_class) return "";
  std::string out = "details: `squashlab repro TOKEN` replays a class";
  if (!opt.listings) out += "; -v prints the minimised schedules";
  out += opt.out_dir.empty() ? "; --out DIR writes reports, schedules and Perfetto traces"
                             : "; reports, schedules and Perfetto traces are in " + opt.out_dir;
  if (!opt.json.empty()) out += "; JSON in " + opt.json;
  return out + "\n\n";
}

std::string FormatTable(const VerifyResult& r, const Labels& labels) {
  std::string out = Printf("%-19s %-17s %9s  %s\n", "variant", "decompressor", "schedules",
                           "verdict (class kernel first-found token)");
  for (const CellResult& cell : r.cells) {
    const std::vector<FoundClass> classes = FoundClasses(cell);
    std::string verdict = classes.empty()
                              ? (cell.exhausted ? "clean (exhausted)" : "clean")
                              : std::to_string(classes.size()) +
                                    (classes.size() == 1 ? " class" : " classes");
    out += Printf("%-19s %-17s %9ld  %s\n", cell.variant.c_str(), cell.decomp.c_str(), cell.runs,
                  verdict.c_str());
    for (const FoundClass& c : classes) {
      out += Printf("  [%s] %-5s %7ld sched %6.2f s  %s\n", labels.at(KeyOf(c)).c_str(),
                    c.kernel.c_str(), c.first_schedule, c.seconds_to_first,
                    c.minimised_token.c_str());
    }
  }
  return out;
}

}  // namespace

std::string FormatVerifyReport(const VerifyResult& r, const VerifyReportOptions& opt) {
  Labels labels;
  std::string classes = FormatClasses(r, &labels);
  std::string out = opt.listings ? FormatListings(r) : "";
  out += classes + FormatDetailsPointer(opt, !labels.empty());
  return out + FormatTable(r, labels);
}

std::string FormatVerifySummary(const VerifyResult& r, const Expectations& expected,
                                const std::vector<std::string>& unmet) {
  size_t clean = 0, failing = 0;
  std::map<std::string, size_t> classes_by_variant;
  for (const CellResult& cell : r.cells) {
    const size_t n = FoundClasses(cell).size();
    (n == 0 ? clean : failing)++;
    if (n > 0) classes_by_variant[cell.variant] += n;
  }
  std::string failing_text;
  for (const auto& [variant, n] : classes_by_variant)
    failing_text += (failing_text.empty() ? " (" : ", ") + variant;
  if (!failing_text.empty()) failing_text += ")";
  std::string out;
  for (const std::string& u : unmet) out += "unexpected: " + u + "\n";
  std::string expected_fail;
  for (const auto& [variant, fail] : expected)
    if (fail) expected_fail += (expected_fail.empty() ? "" : ", ") + variant;
  if (expected_fail.empty()) expected_fail = "none";
  out += Printf("verdict: %zu cells in %.0f s, %zu clean, %zu failing%s; expected to fail: %s: %s\n",
                r.cells.size(), r.seconds, clean, failing, failing_text.c_str(),
                expected_fail.c_str(), unmet.empty() ? "as expected" : "NOT as expected");
  return out;
}

}  // namespace squashlab::cli
