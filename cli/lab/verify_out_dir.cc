// SPDX-License-Identifier: GPL-2.0-only
// This file implements verify's per-class output files.
#include "cli/lab/verify_out_dir.h"

#include <sys/stat.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>

#include "cli/lab/verify_classes.h"
#include "harness/verify/verify.h"

namespace squashlab::cli {
namespace {

Status WriteText(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  return out ? Status::Ok() : Status::IoError("cannot write " + path);
}

std::string Slug(const std::string& s) {
  std::string out;
  for (char ch : s)
    out += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '-';
  return out;
}

Status WriteClass(const std::string& base, const CellResult& cell,
                  const FoundClass& c) {
  const RunResult& m = *c.minimised;
  std::string report =
      m.report.ToString() + "cell: " + cell.variant + " x " + cell.decomp +
      "\nkernel: " + c.kernel + "\nscenario: " + c.scenario +
      "\nfirst found after " + std::to_string(c.first_schedule) +
      " schedules (" + std::to_string(c.seconds_to_first) + " s)" +
      "\nreplay token: " + c.token + "\nminimised (" +
      std::to_string(m.preemptions) + " preemptions, " +
      std::to_string(m.steps) + " steps): " + c.minimised_token + "\n";
  SQL_RETURN_IF_ERROR(WriteText(base + ".report.txt", report));
  SQL_RETURN_IF_ERROR(WriteText(base + ".ftrace.txt", MinimisedListing(c)));
  if (!WriteRunTrace(base + ".trace.json", m))
    return Status::IoError("cannot write " + base + ".trace.json");
  return Status::Ok();
}

}  // namespace

Status WriteVerifyOutDir(const std::string& dir, const VerifyResult& r) {
  if (mkdir(dir.c_str(), 0777) != 0 && errno != EEXIST)
    return Status::IoError(std::string("mkdir: ") + std::strerror(errno));
  for (const CellResult& cell : r.cells) {
    int n = 0;
    for (const FoundClass& c : FoundClasses(cell)) {
      const std::string base = dir + "/" + cell.variant + "." + cell.decomp +
                               "." + std::to_string(++n) + "-" + Slug(c.kind);
      SQL_RETURN_IF_ERROR(WriteClass(base, cell, c));
    }
  }
  return Status::Ok();
}

}  // namespace squashlab::cli
