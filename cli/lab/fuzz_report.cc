// SPDX-License-Identifier: GPL-2.0-only
// This file implements the output of `squashlab fuzz`.
#include "cli/lab/fuzz_report.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

namespace squashlab::cli {
namespace {

std::string Hex(const std::vector<uint8_t>& b) {
  static const char* kDigits = "0123456789abcdef";
  std::string s;
  s.reserve(b.size() * 2);
  for (uint8_t c : b) {
    s += kDigits[c >> 4];
    s += kDigits[c & 15];
  }
  return s;
}

std::string ReplayCommand(const FuzzRun& run, size_t i) {
  const std::string image = i < run.image_files.size()
                                ? run.image_files[i]
                                : "IMAGE (write it with --out DIR)";
  return "squashlab fuzz --replay " + image + " " + run.replay_arg;
}

}  // namespace

std::string FormatFuzzReport(const FuzzResult& r, const FuzzRun& run) {
  std::ostringstream o;
  for (size_t i = 0; i < r.findings.size(); i++) {
    const FuzzFinding& f = r.findings[i];
    o << "\n[" << i + 1 << "] " << f.report.title << "\n"
      << f.report.ToString() << "\n"
      << "  found after " << f.exec << " executions (" << f.seconds
      << " s), from seed " << f.seed_name << ": ";
    for (size_t m = 0; m < f.mutations.size(); m++)
      o << (m ? "; " : "") << f.mutations[m];
    o << "\n  minimised: " << f.bytes_changed << " bytes differ from the seed\n"
      << "  replay: " << ReplayCommand(run, i) << "\n";
  }
  char line[256];
  o << "\n"
    << run.target << ": " << r.execs << " executions in "
    << static_cast<long>(r.seconds) << " s ("
    << static_cast<long>(r.execs / std::max(r.seconds, 1e-9)) << "/s)\n";
  std::snprintf(line, sizeof line, "%-4s %-64s %10s %8s %7s\n", "#", "title",
                "first exec", "seconds", "count");
  o << line;
  for (size_t i = 0; i < r.findings.size(); i++) {
    const FuzzFinding& f = r.findings[i];
    std::snprintf(line, sizeof line, "%-4zu %-64s %10ld %8.1f %7ld\n", i + 1,
                  f.report.title.substr(0, 64).c_str(), f.exec, f.seconds,
                  f.count);
    o << line;
  }
  if (r.findings.empty()) o << "     (no finding)\n";
  o << "functions of the code under test reached: " << r.functions.size()
    << "\n";
  std::string row = " ";
  for (const std::string& fn : r.functions) {
    if (row.size() + fn.size() + 2 > 100) {
      o << row << "\n";
      row = " ";
    }
    row += " " + fn + ",";
  }
  if (row.size() > 1) o << row.substr(0, row.size() - 1) << "\n";
  return o.str();
}

Status WriteFuzzImages(const std::string& dir, const FuzzResult& r,
                       FuzzRun* run) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status::IoError(dir + ": " + ec.message());
  run->out_dir = dir;
  run->image_files.clear();
  for (size_t i = 0; i < r.findings.size(); i++) {
    const FuzzFinding& f = r.findings[i];
    const std::string base = dir + "/finding-" + std::to_string(i + 1);
    for (const auto& [suffix, bytes] : {std::pair{".sqfs", &f.minimised},
                                        std::pair{".found.sqfs", &f.image}}) {
      // As the walk's disk holds it: padded with zeros to whole 4 KiB
      // blocks, so that a loop device (whole 512-byte sectors) mounts it
      // on a real kernel as the lab did.
      std::vector<uint8_t> disk(*bytes);
      disk.resize((disk.size() + 4095) / 4096 * 4096, 0);
      std::ofstream out(base + suffix, std::ios::binary);
      out.write(reinterpret_cast<const char*>(disk.data()),
                static_cast<std::streamsize>(disk.size()));
      if (!out) return Status::IoError("cannot write " + base + suffix);
    }
    std::ofstream(base + ".txt") << f.report.ToString() << "\n";
    run->image_files.push_back(base + ".sqfs");
  }
  return Status::Ok();
}

Status WriteFuzzJson(const std::string& path, const FuzzResult& r,
                     const FuzzRun& run) {
  nlohmann::json j;
  j["target"] = run.target;
  j["executions"] = r.execs;
  j["seconds"] = r.seconds;
  j["executions_per_second"] = r.execs / std::max(r.seconds, 1e-9);
  j["functions_reached"] = r.functions;
  j["findings"] = nlohmann::json::array();
  for (size_t i = 0; i < r.findings.size(); i++) {
    const FuzzFinding& f = r.findings[i];
    nlohmann::json x;
    x["title"] = f.report.title;
    x["kind"] = ReportKindName(f.report.kind);
    x["report"] = f.report.ToString();
    x["first_execution"] = f.exec;
    x["seconds"] = f.seconds;
    x["count"] = f.count;
    x["seed"] = f.seed_name;
    x["mutations"] = f.mutations;
    x["bytes_changed"] = f.bytes_changed;
    x["image_hex"] = Hex(f.minimised);
    x["replay"] = ReplayCommand(run, i);
    j["findings"].push_back(x);
  }
  std::ofstream out(path);
  out << j.dump(2) << "\n";
  if (!out) return Status::IoError("cannot write " + path);
  return Status::Ok();
}

}  // namespace squashlab::cli
