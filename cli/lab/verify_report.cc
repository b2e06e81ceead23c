// SPDX-License-Identifier: GPL-2.0-only
// This file implements verify's text verdict. Root causes are numbered 1,
// 2, ..., the ones explaining most classes first; with --all-classes every
// class is listed too, labelled A, B, ... in the order first found, so that
// the table can name them in one column and each report is printed once
// however many cells found it.
#include "cli/lab/verify_report.h"

#include <cstdio>
#include <map>
#include <set>

#include "cli/lab/verify_classes.h"
#include "cli/lab/verify_root_causes.h"
#include "harness/verify/verify.h"

namespace squashlab::cli {
namespace {

// What the default verdict shows of the root causes, so that it fits a
// screen whatever a longer exploration finds: --all-classes shows the rest.
constexpr size_t kShownCauses = 8;
constexpr size_t kShownTitleLines = 3;

std::string Printf(const char* fmt, auto... args) {
  char buf[256];
  std::snprintf(buf, sizeof buf, fmt, args...);
  return buf;
}

std::string Label(size_t i) {
  return i < 26 ? std::string(1, static_cast<char>('A' + i))
                : "Z" + std::to_string(i - 25);
}

// Class key -> label, in the order first found.
using Labels = std::map<std::string, std::string>;

// " (in kworker)": the kind of task that hit it, without its ids.
std::string TaskNote(const FoundClass& c) {
  const std::string& task = c.minimised->report.task;
  if (task.empty() || c.kind == "hung-task") return "";
  const size_t end = task.find_first_of("/:");
  return " (in " + task.substr(0, end) + ")";
}

std::string Plural(size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string FormatCause(size_t number, const RootCauseGroup& g,
                        size_t title_lines) {
  std::string out = Printf("  [%zu] ", number) + g.cause.Describe() + " (" +
                    Plural(g.classes.size(), "class", "classes") + ")\n";
  std::vector<std::string> titles = MergedTitles(g.classes);
  if (titles.size() == 1 && titles[0] == g.cause.Describe()) titles.clear();
  for (size_t i = 0; i < titles.size() && i < title_lines; i++)
    out += "        " + titles[i] + "\n";
  if (titles.size() > title_lines)
    out += "        and " +
           Plural(titles.size() - title_lines, "other title", "other titles") +
           " (--all-classes)\n";
  std::string seed;
  for (const SeedOops* o : g.seed_oopses)
    seed += (seed.empty() ? "" : "; ") + o->name + ", " + o->printed;
  if (!seed.empty()) out += "        explains the seed thread's " + seed + "\n";
  out += "        repro: " + g.classes[g.repro].minimised_token + "\n";
  return out;
}

std::string FormatCauses(const std::vector<RootCauseGroup>& groups, bool all) {
  if (groups.empty()) return "";
  std::set<std::string> keys;  // a class may have several causes
  for (const RootCauseGroup& g : groups)
    for (const FoundClass& c : g.classes) keys.insert(ClassKey(c));
  const size_t classes = keys.size();
  std::string out =
      "root causes of the " +
      Plural(classes, "failure class", "failure classes") +
      " (on each one's schedule, the freed object KASAN names or the first "
      "invalid access):\n";
  const size_t shown =
      all ? groups.size() : std::min(groups.size(), kShownCauses);
  for (size_t i = 0; i < shown; i++)
    out += FormatCause(i + 1, groups[i], all ? SIZE_MAX : kShownTitleLines);
  if (shown < groups.size())
    out +=
        "  and " +
        Plural(groups.size() - shown, "other root cause", "other root causes") +
        " (--all-classes)\n";
  return out + "\n";
}

std::string FormatClasses(const VerifyResult& r,
                          const std::vector<RootCauseGroup>& groups,
                          Labels* labels) {
  std::string out;
  for (const CellResult& cell : r.cells) {
    for (const FoundClass& c : DistinctClasses(cell)) {
      if (labels->count(ClassKey(c))) continue;
      const std::string label = Label(labels->size());
      (*labels)[ClassKey(c)] = label;
      out += Printf("  [%s] (%zu) %-19s ", label.c_str(),
                    GroupNumber(groups, c.root.key), c.kind.c_str()) +
             c.title + TaskNote(c) + "\n";
    }
  }
  return out.empty() ? out
                     : "failure classes (the kernel's title of each; (N): its "
                       "root cause):\n" +
                           out + "\n";
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
  if (!opt.all_classes) out += "; --all-classes lists every class and token";
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
  const std::vector<FoundClass> classes = DistinctClasses(cell);
  for (size_t i = 0; i < classes.size();) {
    const FoundClass& c = classes[i];
    std::string names = labels.at(ClassKey(c));
    size_t j = i + 1;
    for (; j < classes.size() && classes[j].token == c.token; j++)
      names += "," + labels.at(ClassKey(classes[j]));
    out +=
        Printf("  %-9s %-5s %6ld sched %6.2f s  ", ("[" + names + "]").c_str(),
               c.kernel.c_str(), c.first_schedule, c.seconds_to_first) +
        c.minimised_token + "\n";
    i = j;
  }
  return out;
}

// "32 classes from 5 root causes [1,2,3,4,6]"
std::string CellVerdict(const CellResult& cell,
                        const std::vector<RootCauseGroup>& groups) {
  const std::vector<FoundClass> classes = DistinctClasses(cell);
  if (classes.empty()) return cell.exhausted ? "clean (exhausted)" : "clean";
  std::set<size_t> numbers;
  for (const FoundClass& c : classes)
    numbers.insert(GroupNumber(groups, c.root.key));
  std::string list;
  for (size_t n : numbers)
    list += (list.empty() ? "" : ",") + std::to_string(n);
  return Plural(classes.size(), "class", "classes") + " from " +
         Plural(numbers.size(), "root cause", "root causes") + " [" + list +
         "]";
}

std::string FormatTable(const VerifyResult& r,
                        const std::vector<RootCauseGroup>& groups,
                        const Labels* labels) {
  std::string out =
      Printf("%-19s %-17s %9s  %s\n", "variant", "decompressor", "schedules",
             labels ? "verdict; [classes] kernel, first found after, replay "
                      "token"
                    : "verdict");
  for (const CellResult& cell : r.cells) {
    out += Printf("%-19s %-17s %9ld  ", cell.variant.c_str(),
                  cell.decomp.c_str(), cell.runs) +
           CellVerdict(cell, groups) + "\n";
    if (labels) out += FormatClassRows(cell, *labels);
  }
  return out;
}

}  // namespace

std::string FormatVerifyReport(const VerifyResult& r,
                               const VerifyReportOptions& opt) {
  const std::vector<RootCauseGroup> groups = GroupByRootCause(r);
  Labels labels;
  std::string classes =
      opt.all_classes ? FormatClasses(r, groups, &labels) : "";
  std::string out = opt.listings ? FormatListings(r) : "";
  out += FormatCauses(groups, opt.all_classes) + classes +
         FormatDetailsPointer(opt, !groups.empty());
  return out + FormatTable(r, groups, opt.all_classes ? &labels : nullptr);
}

std::string FormatVerifySummary(const VerifyResult& r,
                                const Expectations& expected,
                                const std::vector<std::string>& unmet) {
  size_t clean = 0, failing = 0;
  std::map<std::string, std::set<std::string>> classes_by_variant;
  for (const CellResult& cell : r.cells) {
    const std::vector<FoundClass> shown = DistinctClasses(cell);
    (shown.empty() ? clean : failing)++;
    for (const FoundClass& c : shown)
      classes_by_variant[cell.variant].insert(ClassKey(c));
  }
  std::string failing_text;
  for (const auto& [variant, keys] : classes_by_variant)
    failing_text += (failing_text.empty() ? " (" : ", ") + variant + ": " +
                    Plural(keys.size(), "class", "classes");
  if (!failing_text.empty()) failing_text += ")";
  std::string out;
  for (const std::string& u : unmet) out += "unexpected: " + u + "\n";
  std::string expected_fail;
  for (const auto& [variant, fail] : expected)
    if (fail) expected_fail += (expected_fail.empty() ? "" : ", ") + variant;
  if (expected_fail.empty()) expected_fail = "none";
  out += Printf("verdict: %zu cells in %.0f s, %zu clean, %zu failing",
                r.cells.size(), r.seconds, clean, failing) +
         failing_text + "; expected to fail: " + expected_fail + ": " +
         (unmet.empty() ? "as expected" : "NOT as expected") + "\n";
  return out;
}

}  // namespace squashlab::cli
